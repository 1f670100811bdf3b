# Encoded input (docs/INPUT.md, labels decode and cli): the encodes are made at test time with
# the system's ffmpeg (x264, x265 10-bit, libaom AV1, VP9); each is scored directly and through
# the ffmpeg-pipe route, and the two must agree bit for bit, frames and JSON. Skips (77) without
# ffmpeg or without libav* in the build. pair_frames is its frame-by-frame check of the library
# entry (ev_video_open_pair), run by the script.
# A check program of the library's internals: src/ included, the exact flags, the warnings.
function(ev_decode_tool name source)
  add_executable(${name} ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/${source})
  target_link_libraries(${name} PRIVATE exactvmaf ${ARGN})
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/src)
  target_compile_definitions(${name} PRIVATE _POSIX_C_SOURCE=200809L)
  ev_exact_flags(${name})
  ev_warnings(${name})
endfunction()
ev_decode_tool(decode_pair_frames pair_frames.c)
# upload_frames: the uploaded route (EV_KEEP_ALL_FRAMES: the read-ahead thread, the ring, the
# close) over its own gpu_mem.h in host memory, so that it runs without a GPU.
ev_decode_tool(decode_upload_frames upload_frames.c)
add_test(NAME encoded_input
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/encoded_test.sh $<TARGET_FILE:exactvmaf_cli>
                 $<TARGET_FILE:decode_pair_frames> ${PROJECT_SOURCE_DIR})
set_tests_properties(encoded_input PROPERTIES LABELS "decode;cli" SKIP_RETURN_CODE 77 TIMEOUT 1500)
add_test(NAME decode_upload
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/upload_test.sh $<TARGET_FILE:decode_upload_frames>
                 ${PROJECT_SOURCE_DIR})
set_tests_properties(decode_upload PROPERTIES LABELS "decode" SKIP_RETURN_CODE 77 TIMEOUT 300)

# Encoded input kept on the device (ev_video_read_device: the device unpack and the scaler's
# twin) against the host route, frame by frame; run by gpu_nvdec on its pairs.
set(EV_DEVICE_FRAMES_TOOL -)
if(EV_WITH_CUDA)
  ev_decode_tool(decode_device_frames device_frames.c CUDA::cudart_static)
  set(EV_DEVICE_FRAMES_TOOL $<TARGET_FILE:decode_device_frames>)
endif()

# A stream decoded in segments by several decoders (EvVideoOptions.decode_sessions) against one
# decoder, hash for hash, on the CPU's decoders (encodes made at test time).
ev_decode_tool(decode_frame_hashes frame_hashes.c)
add_test(NAME decode_segments
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/segments_test.sh $<TARGET_FILE:decode_frame_hashes>
                 ${PROJECT_SOURCE_DIR} $<TARGET_FILE:exactvmaf_cli>)
set_tests_properties(decode_segments PROPERTIES LABELS "decode" SKIP_RETURN_CODE 77 TIMEOUT 600)

# NVDEC against the software decoders, and the CUDA route on encodes against the CPU's (label
# gpu: skips without a device). EV_NVDEC_CLIPS names a folder of encodes (the device machine has
# no ffmpeg to make them); without it, ffmpeg makes them.
add_test(NAME gpu_nvdec
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/nvdec_test.sh $<TARGET_FILE:exactvmaf_cli>
                 $<TARGET_FILE:decode_frame_hashes> ${PROJECT_SOURCE_DIR} ${EV_DEVICE_FRAMES_TOOL})
set_tests_properties(gpu_nvdec PROPERTIES LABELS "gpu;decode" SKIP_RETURN_CODE 77 TIMEOUT 900)

# The scaler's C reference (src/io/scale_ref.c, the spec of a GPU twin) against libswscale,
# sample for sample, on its C path and its x86 SIMD paths (label decode). Built with libav*:
# the test links libswscale itself.
if(EV_WITH_FFMPEG)
  ev_decode_tool(decode_scale_ref scale_ref_test.c ev::libav)
  add_test(NAME decode_scale_ref COMMAND decode_scale_ref)
  set_tests_properties(decode_scale_ref PROPERTIES LABELS "decode" TIMEOUT 600)
endif()

# The scaler's CUDA twin against the C reference above, sample for sample (label gpu: skips
# without a device).
if(EV_WITH_CUDA)
  ev_add_test(gpu_scale_twin SOURCES ${CMAKE_CURRENT_LIST_DIR}/scale_twin_test.c LABELS "gpu;decode")
  target_link_libraries(gpu_scale_twin PRIVATE CUDA::cudart_static)
endif()

# The device unpack of NVDEC's layouts against the host's arithmetic (label gpu).
if(EV_WITH_CUDA)
  ev_add_test(gpu_unpack_twin SOURCES ${CMAKE_CURRENT_LIST_DIR}/unpack_twin_test.c LABELS "gpu;decode")
  target_link_libraries(gpu_unpack_twin PRIVATE CUDA::cudart_static)
endif()
