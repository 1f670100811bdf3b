# The parity gate as tests. Without a GPU (CI): the gate's own logic, CPU against CPU, must
# pass, and must fail when one value is moved by one ULP. With a GPU (label gpu): every twin
# against the CPU on the quick fixture set and the corpus (exit 77 without a device).
add_test(NAME twins_gate_self COMMAND exactvmaf_parity --twin-backend cpu --quick --threads 2)
add_test(NAME twins_gate_planted_ulp
         COMMAND bash -c "\"$0\" --twin-backend cpu --quick --threads 2 --plant-ulp --only psnr >\"$1\"; rc=$?; cat \"$1\"; [ $rc -eq 1 ] && grep -q DIFFERENT \"$1\""
                 $<TARGET_FILE:exactvmaf_parity> ${CMAKE_CURRENT_BINARY_DIR}/planted_ulp.txt)
set_tests_properties(twins_gate_self twins_gate_planted_ulp PROPERTIES LABELS twins)

add_test(NAME gpu_parity_quick
         COMMAND exactvmaf_parity --quick --threads 8 --corpus ${EV_SHARED_DIR}/corpus)
set_tests_properties(gpu_parity_quick PROPERTIES LABELS gpu SKIP_RETURN_CODE 77)

# The noise search: its own logic CPU against CPU (CI), and a short search on the GPU.
add_test(NAME twins_noise_search_self
         COMMAND exactvmaf_parity --twin-backend cpu --noise-search 300 --only float_ssim
                 --options enable_lcs=true --threads 2)
set_tests_properties(twins_noise_search_self PROPERTIES LABELS twins)
add_test(NAME gpu_ssim_noise_quick
         COMMAND exactvmaf_parity --noise-search 20000 --only float_ssim --options enable_lcs=true)
add_test(NAME gpu_ms_ssim_noise_quick
         COMMAND exactvmaf_parity --noise-search 1000 --only float_ms_ssim
                 --options enable_lcs=true --size 176x176)
set_tests_properties(gpu_ssim_noise_quick gpu_ms_ssim_noise_quick PROPERTIES
                     LABELS gpu SKIP_RETURN_CODE 77)

# The VMAF search (vif, adm, motion at random sizes, depths and layouts): CPU against CPU
# (CI), and a short search on the GPU.
add_test(NAME twins_vmaf_search_self
         COMMAND exactvmaf_parity --twin-backend cpu --vmaf-search 4000 --threads 2)
set_tests_properties(twins_vmaf_search_self PROPERTIES LABELS twins)
add_test(NAME gpu_vmaf_search_quick COMMAND exactvmaf_parity --vmaf-search 20000)
set_tests_properties(gpu_vmaf_search_quick PROPERTIES LABELS gpu SKIP_RETURN_CODE 77)

# The same search through any extractors (--features): its logic CPU against CPU (CI).
add_test(NAME twins_feature_search_self
         COMMAND exactvmaf_parity --twin-backend cpu --vmaf-search 60 --threads 2
                 --features "cambi;speed_chroma:speed_kernelscale=1.0;ciede" --min-size 216x216
                 --max-size 400x300 --depths 8,10,12,16)
set_tests_properties(twins_feature_search_self PROPERTIES LABELS twins)

# speed_chroma and speed_temporal through the search: CPU against CPU (CI), and on the GPU
# (default options with the temporal twin; the v1 models' option sets, one prescaled). The
# chroma planes of 4:2:0 frames need 16 x 10 rows (after speed_prescale) for a regular
# covariance: smaller frames only take the singular path.
add_test(NAME twins_speed_search_self
         COMMAND exactvmaf_parity --twin-backend cpu --vmaf-search 120 --threads 2
                 --features "speed_chroma;speed_temporal" --min-size 352x336
                 --max-size 640x480 --depths 8,10,12,16)
set_tests_properties(twins_speed_search_self PROPERTIES LABELS twins)
add_test(NAME gpu_speed_search_quick
         COMMAND exactvmaf_parity --vmaf-search 20000
                 --features "speed_chroma;speed_temporal;speed_temporal:speed_use_ref_diff=true"
                 --min-size 352x336 --max-size 960x540 --depths 8,10,12,16)
add_test(NAME gpu_speed_v1_search_quick
         COMMAND exactvmaf_parity --vmaf-search 5000
                 --features "speed_chroma:speed_kernelscale=1.0:speed_nn_floor=0.1:speed_sigma_nn=0.19:speed_weight_var_mode=5:speed_max_val=45.0;speed_chroma:speed_nn_floor=0.1:speed_sigma_nn=0.19:speed_weight_var_mode=5:speed_prescale=0.5:speed_prescale_method=bilinear:speed_max_val=45.0"
                 --min-size 704x672 --max-size 1920x1080 --depths 8,10,12,16)
set_tests_properties(gpu_speed_search_quick gpu_speed_v1_search_quick PROPERTIES
                     LABELS gpu SKIP_RETURN_CODE 77)

# The device's glibc log2 (libm/glibc_log2.h) against the host's glibc on every float argument
# and 10^7 double ones (more by hand: glibc_log2_device_test 1000000000).
if(EV_WITH_CUDA)
  ev_add_test(gpu_glibc_log2_device SOURCES ${CMAKE_CURRENT_LIST_DIR}/glibc_log2_device_test.c
              LABELS gpu ARGS 10000000)
  target_link_libraries(gpu_glibc_log2_device PRIVATE m)
endif()

# Fresh CUDA contexts' first frames against the CPU, with dirty device memory and a busy legacy
# default stream: a worker's set-up must be ordered on its own stream.
if(EV_WITH_CUDA)
  ev_add_test(gpu_first_frames SOURCES ${CMAKE_CURRENT_LIST_DIR}/first_frames_test.c
              LABELS gpu ARGS 120)
endif()

# The warm start (cuda/runtime.h): what an engine leaves of the device's primary context (none
# from a CPU engine or one closed before its first frame; libavcodec's flags from a CUDA one),
# and a CUDA engine's first frames against the CPU's.
if(EV_WITH_CUDA)
  ev_add_test(gpu_warm_start SOURCES ${CMAKE_CURRENT_LIST_DIR}/warm_start_test.c LABELS gpu)
endif()

# psnr_hvs: its search CPU against CPU (CI), the gate's rows and a short search on the GPU.
# Sizes from 1x1: planes without an 8x8 block (NaN scores) are drawn too; depths 8..12 (the
# CPU refuses deeper samples, and the gate's 16-bit fixtures are refused by both).
add_test(NAME twins_psnr_hvs_search_self
         COMMAND exactvmaf_parity --twin-backend cpu --vmaf-search 12000 --threads 2
                 --features psnr_hvs --min-size 1x1 --max-size 320x240 --depths 8,9,10,11,12)
set_tests_properties(twins_psnr_hvs_search_self PROPERTIES LABELS twins)
add_test(NAME gpu_psnr_hvs_gate COMMAND exactvmaf_parity --only psnr_hvs
                                        --corpus ${EV_SHARED_DIR}/corpus)
add_test(NAME gpu_psnr_hvs_search_quick
         COMMAND exactvmaf_parity --vmaf-search 20000 --features psnr_hvs --min-size 1x1
                 --max-size 640x480 --depths 8,9,10,11,12)
set_tests_properties(gpu_psnr_hvs_gate gpu_psnr_hvs_search_quick PROPERTIES
                     LABELS gpu SKIP_RETURN_CODE 77)
# The float twins (float_vif, float_adm, float_motion, float_ansnr): the search's logic CPU
# against CPU (CI), and short searches on the GPU, with default and arithmetic-changing options.
set(EV_FLOAT_TWINS "float_vif;float_adm;float_motion;float_ansnr")
set(EV_FLOAT_TWINS_OPTS "float_vif:vif_kernelscale=1.5:vif_prescale=0.75:debug=true;float_adm:rcp_estimate=1:adm_enhn_gain_limit=1.2:debug=true;float_motion:motion_add_scale1=true:motion_filter_size=3;float_ansnr")
add_test(NAME twins_float_search_self
         COMMAND exactvmaf_parity --twin-backend cpu --vmaf-search 60 --threads 2
                 --features "${EV_FLOAT_TWINS}" --min-size 48x48 --max-size 400x300
                 --depths 8,10,12,16)
add_test(NAME twins_float_search_opts_self
         COMMAND exactvmaf_parity --twin-backend cpu --vmaf-search 60 --threads 2
                 --features "${EV_FLOAT_TWINS_OPTS}" --min-size 48x48 --max-size 400x300
                 --depths 8,10,12,16)
set_tests_properties(twins_float_search_self twins_float_search_opts_self PROPERTIES LABELS twins)
# (their gate rows run in gpu_parity_quick above)
add_test(NAME gpu_float_search_quick
         COMMAND exactvmaf_parity --vmaf-search 20000 --features "${EV_FLOAT_TWINS}"
                 --min-size 48x48 --max-size 400x300 --depths 8,10,12,16)
add_test(NAME gpu_float_search_opts_quick
         COMMAND exactvmaf_parity --vmaf-search 20000 --features "${EV_FLOAT_TWINS_OPTS}"
                 --min-size 48x48 --max-size 400x300 --depths 8,10,12,16)
set_tests_properties(gpu_float_search_quick gpu_float_search_opts_quick PROPERTIES LABELS gpu SKIP_RETURN_CODE 77)
# cambi: the gate's rows on the quick fixtures (banding among them), and the search with its
# banded pools (216x216 is cambi's smallest encode), on the GPU; the search CPU against CPU (CI).
set(EV_CAMBI_SEARCH_FEATURES
    "cambi;cambi:cambi_high_res_speedup=1080:cambi_vis_lum_threshold=0.06:cambi_max_val=17;cambi:max_log_contrast=5:enc_bitdepth=8:full_ref=true")
add_test(NAME gpu_cambi_parity_quick COMMAND exactvmaf_parity --quick --only cambi)
add_test(NAME gpu_cambi_search_quick
         COMMAND exactvmaf_parity --vmaf-search 20000 --features "${EV_CAMBI_SEARCH_FEATURES}"
                 --min-size 216x216 --max-size 720x480 --depths 8,10,12,16)
set_tests_properties(gpu_cambi_parity_quick gpu_cambi_search_quick PROPERTIES
                     LABELS gpu SKIP_RETURN_CODE 77)
add_test(NAME twins_cambi_search_self
         COMMAND exactvmaf_parity --twin-backend cpu --vmaf-search 400 --threads 2
                 --features "${EV_CAMBI_SEARCH_FEATURES}" --min-size 216x216 --max-size 400x300
                 --depths 8,10,12,16)
set_tests_properties(twins_cambi_search_self PROPERTIES LABELS twins)
add_test(NAME gpu_cambi_heatmaps
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/cambi_heatmaps.sh $<TARGET_FILE:exactvmaf_cli>
                 ${EV_SHARED_DIR}/corpus ${CMAKE_CURRENT_BINARY_DIR}/cambi_heatmaps)
set_tests_properties(gpu_cambi_heatmaps PROPERTIES LABELS gpu SKIP_RETURN_CODE 77)

# ciede's twin (device replicas of glibc's libm, glibc_exp_pow.h): its search at small sizes,
# every depth and layout, CPU against CPU (CI) and on the GPU; its gate rows on every fixture.
add_test(NAME twins_ciede_search_self
         COMMAND exactvmaf_parity --twin-backend cpu --vmaf-search 4000 --threads 2
                 --features ciede --min-size 16x16 --max-size 96x72 --depths 8,10,12,16)
set_tests_properties(twins_ciede_search_self PROPERTIES LABELS twins)
add_test(NAME gpu_ciede_search_quick
         COMMAND exactvmaf_parity --vmaf-search 20000 --features ciede --min-size 16x16
                 --max-size 96x72 --depths 8,10,12,16)
add_test(NAME gpu_ciede_parity
         COMMAND exactvmaf_parity --only ciede --corpus ${EV_SHARED_DIR}/corpus)
set_tests_properties(gpu_ciede_search_quick gpu_ciede_parity PROPERTIES
                     LABELS gpu SKIP_RETURN_CODE 77)

# Device pictures (exactvmaf/cuda.h): lent in place in the primary context and in a context of
# the caller's, copied on the device, on the CPU backend, and host pictures lent to the CUDA
# backend, against the CPU's bits.
if(EV_WITH_CUDA)
  ev_add_test(gpu_device_pictures SOURCES ${CMAKE_CURRENT_LIST_DIR}/device_pictures_test.c
              LABELS gpu)
endif()

# ssimulacra2's twin: its search CPU against CPU (CI); on the GPU its gate rows (every fixture
# and the corpus) and searches of small frames (8x8 up: every scale count) and of frames up to
# 1080p. The 10^6-frame search is the small one with --vmaf-search 1000000 (docs/SSIMULACRA2.md).
set(EV_SSIMU2_SEARCH_FEATURES "ssimulacra2;ssimulacra2:matrix=bt709")
add_test(NAME twins_ssimulacra2_search_self
         COMMAND exactvmaf_parity --twin-backend cpu --vmaf-search 4000 --threads 2
                 --features "${EV_SSIMU2_SEARCH_FEATURES}" --min-size 8x8 --max-size 96x72)
set_tests_properties(twins_ssimulacra2_search_self PROPERTIES LABELS twins)
add_test(NAME gpu_ssimulacra2_gate
         COMMAND exactvmaf_parity --only ssimulacra2 --corpus ${EV_SHARED_DIR}/corpus)
add_test(NAME gpu_ssimulacra2_search_quick
         COMMAND exactvmaf_parity --vmaf-search 20000 --features "${EV_SSIMU2_SEARCH_FEATURES}"
                 --min-size 8x8 --max-size 64x64)
add_test(NAME gpu_ssimulacra2_search_large_quick
         COMMAND exactvmaf_parity --vmaf-search 2000 --features "${EV_SSIMU2_SEARCH_FEATURES}"
                 --min-size 64x64 --max-size 1920x1080)
set_tests_properties(gpu_ssimulacra2_gate gpu_ssimulacra2_search_quick
                     gpu_ssimulacra2_search_large_quick PROPERTIES LABELS gpu SKIP_RETURN_CODE 77
                     TIMEOUT 1800)
