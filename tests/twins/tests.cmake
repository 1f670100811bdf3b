# The parity gate as tests. Without a GPU (CI): the gate's own logic, CPU against CPU, must
# pass, and must fail when one value is moved by one ULP. With a GPU (label gpu): every twin
# against the CPU on the quick fixture set and the corpus (exit 77 without a device).
add_test(NAME twins_gate_self COMMAND exactvmaf_parity --twin-backend cpu --quick --threads 2)
add_test(NAME twins_gate_planted_ulp
         COMMAND bash -c "\"$0\" --twin-backend cpu --quick --threads 2 --plant-ulp --only psnr >\"$1\"; rc=$?; cat \"$1\"; [ $rc -eq 1 ] && grep -q DIFFERENT \"$1\""
                 $<TARGET_FILE:exactvmaf_parity> ${CMAKE_CURRENT_BINARY_DIR}/planted_ulp.txt)
set_tests_properties(twins_gate_self twins_gate_planted_ulp PROPERTIES LABELS twins)

add_test(NAME gpu_parity_quick
         COMMAND exactvmaf_parity --quick --corpus ${EV_SHARED_DIR}/corpus)
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
