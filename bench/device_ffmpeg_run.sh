#!/bin/bash
# The H200 runs of issues 25 and 26, one device call per set of stages (the device tool copies
# the working tree; carry .device):
#   .device/debs/*.deb        libjansson4, libjansson-dev, pkg-config, pkgconf, pkgconf-bin,
#                             libpkgconf3 (apt-get download; unpacked into / with dpkg -x)
#   .device/x265/*.deb        x265, libx265-199, libnuma1 (Debian 12; unpacked into /tmp/x265):
#                             the clips' encoder on a GPU without NVENC
#   .device/ffmpeg            scripts/build_ffmpeg.sh --exactvmaf PREFIX --set encoded OUT
#                             (a CUDA build's install; its ffmpeg-7.1/ffmpeg)
#   .device/ffmpeg-netflix    EV_ANY_LIBVMAF=1 PKG_CONFIG_PATH=<Netflix libvmaf.a + .pc>
#                             scripts/build_ffmpeg.sh --cuda off --set test OUT
#   .device/xpsnr-ffmpeg      scripts/xpsnr_reference.sh DEST's build/ffmpeg (xpsnr's reference)
#   .device/netflix-vmaf      ../shared/anchors/build-netflix.sh DEST's libvmaf/build/tools/vmaf
#                             (the cores stage's peer)
#   .device/s2/               scripts/ssimulacra2_reference.sh DEST's build/tools/ssimulacra2 and
#                             the libjxl shared libraries it needs (ssimulacra2's reference)
#   .device/shared.tgz        ../shared's corpus and golden (tar czf -C ../shared corpus golden;
#                             the device has no ../shared): unpacked into /tmp/shared
#   BUDGET=570 bash bench/device_ffmpeg_run.sh STAGE...   (from the tree's root on the device)
# Stages: ffmpeg (bench/ffmpeg_filters.sh, clips made with x265), corpus
# (bench/ffmpeg_corpus_logs.sh), profile (the libvmaf filter's thread: bench/profile),
# pictures (gpu_device_pictures), ctest (ctest -L gpu, a time-guarded subset), python
# (tests/python/gpu_run.sh), ssimulacra2 (its twin: gpu tests, gate rows, 10^6-frame search),
# metrics (xpsnr's gpu tests and 10^6-frame search; 4K rates of xpsnr and ssimulacra2: the
# reference, the CPU extractor on 16 threads, the twin; the three metrics in one pass), twins4k
# (xpsnr's and ssimulacra2's twins on 4K frames already on the device), cores (issue 23: cambi's
# gpu tests, bench/vs_netflix.sh against .device/netflix-vmaf: CORE_MODELS, CORE_SIZES,
# CORE_THREADS, CORE_BITS, CORE_RUNS, CORE_CPUMASK (both programs; 48: AVX2); --threads 1000000),
# cores10 (10-bit rows, CORE10_SIZES), stages (bench/stages.sh at STAGE_SIZE, STAGE_THREADS,
# STAGE_LIST; the schedule line of v1 at 16 threads), ceiling (after cores: the CPU topology and CEIL_K independent one-thread processes of each CLI
# on the 4K clip, CEIL_MODELS: the host's own bound on frame-level parallelism), scaler (issue
# 24: gpu_scale_twin and gpu_unpack_twin, the twins of src/io against their C references), nvdec
# (issue 24: gpu_nvdec on .device/nv/clips), encoded (bench/encoded_input.sh on .device/rates'
# 1080p and 4K pairs), segments (issue 24: NVDEC in segments, hashes and bench/segments.sh on
# those pairs), segrepeat (the small clips' hashes in segments, SEG_REPEAT times), ladder
# (bench/ladder.sh: the 4K reference and six encodes). Issue 24's
# stages need .device/nv/libav.tgz (bench/device_libav.sh) and .device/rates
# (bench/encoded_clips.sh).
# The build comes first, always.
# Logs into $OUT/logs.tgz; summaries on stdout.
set -u
t_start=$(date +%s)
left() { echo $((${BUDGET:-560} - ($(date +%s) - t_start))); }
root=$(pwd)
stages=${*:-ffmpeg corpus}
L=/tmp/logs
rm -rf $L && mkdir -p $L
for d in .device/debs/*.deb; do dpkg -x "$d" /; done
ldconfig
export LD_LIBRARY_PATH=/usr/local/nvidia/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi -L; nproc; grep -m1 'model name' /proc/cpuinfo
shared_tgz=${SHARED_TGZ:-.device/shared.tgz}  # e.g. a smaller one of the clips a stage needs
mkdir -p /tmp/shared && { [ ! -f "$shared_tgz" ] || tar xzf "$shared_tgz" -C /tmp/shared; }
export CORPUS=/tmp/shared/corpus
if [ -f .device/nv/libav.tgz ]; then  # issue 24: ffmpeg 5.1's libraries, NVDEC on (bench/device_libav.sh)
  tar xzf .device/nv/libav.tgz -C /tmp
  export PKG_CONFIG_PATH=/tmp/libav/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
  export LD_LIBRARY_PATH=/tmp/libav/lib:$LD_LIBRARY_PATH
fi
echo "== build ($(left) s left)"
JANSSON_DEBS=$root/.device/debs LOG_DIR=$L/gpu BUILD_DIR=/tmp/build-gpu scripts/gpu_check.sh build
cmake --install /tmp/build-gpu --prefix /tmp/ev >$L/install.txt 2>&1 || echo "install failed"
j=$(find /tmp/ev-jansson -name "libjansson.so*" 2>/dev/null | head -1)
[ -n "$j" ] && export LD_LIBRARY_PATH=$(dirname "$j"):$LD_LIBRARY_PATH
chmod +x .device/ffmpeg .device/ffmpeg-netflix .device/xpsnr-ffmpeg .device/netflix-vmaf 2>/dev/null
for stage in $stages; do
  echo "== $stage ($(left) s left)"
  case $stage in
    ffmpeg)
      mkdir -p /tmp/x265 && for d in .device/x265/*.deb; do dpkg -x "$d" /tmp/x265; done
      cat >/tmp/x265/run <<'EOF'
#!/bin/sh
LD_LIBRARY_PATH=/tmp/x265/usr/lib/x86_64-linux-gnu exec /tmp/x265/usr/bin/x265 "$@"
EOF
      chmod +x /tmp/x265/run
      X265=/tmp/x265/run timeout $(($(left) - 60)) bench/ffmpeg_filters.sh .device/ffmpeg /tmp/ev \
        $L/ffmpeg .device/ffmpeg-netflix >$L/ffmpeg_bench.txt 2>&1
      echo "rc $?"; grep 'bytes$' $L/ffmpeg_bench.txt
      cat $L/ffmpeg/table.md 2>/dev/null || tail -20 $L/ffmpeg_bench.txt
      rm -f /tmp/ev-ffclips/*.yuv ;;
    corpus)
      timeout 200 bench/ffmpeg_corpus_logs.sh .device/ffmpeg /tmp/ev $CORPUS $L/corpus >$L/corpus.txt 2>&1
      echo "rc $?"; tail -14 $L/corpus.txt ;;
    scaler)  # issue 24: the scaler twin and the device unpack against their C references
      for t in gpu_scale_twin gpu_unpack_twin; do
        timeout 120 /tmp/build-gpu/tests/$t >$L/$t.txt 2>&1
        echo "$t rc $?"; tail -4 $L/$t.txt
      done ;;
    nvdec)  # issue 24: NVDEC's frames, frames kept on the device, CUDA JSON = CPU JSON
      /tmp/build-gpu/exactvmaf --version | grep -E 'input|backends'
      (cd /tmp/build-gpu && EV_NVDEC_CLIPS=$root/.device/nv/clips timeout 300 ctest -V -R gpu_nvdec \
        >$L/nvdec.txt 2>&1)
      echo "rc $?"; grep -E 'ok: |FAIL|not checked|passed|failed' $L/nvdec.txt | cut -c1-400 | head -40 ;;
    segments)  # issue 24: one stream decoded in segments by several NVDEC sessions: frame
      # hashes against the software decoder's (SEG_DIR's pairs, default .device/rates), then
      # bench/segments.sh on SEG_PAIRS (default 1080 2160), SEG_RUNS rounds (default 2),
      # SEG_SESSIONS (default 1 2 3 4)
      hs=/tmp/build-gpu/tests/decode_frame_hashes
      sd=${SEG_DIR:-.device/rates}
      for f in $sd/ref_1080.mkv $sd/dis_1080.mp4 $sd/dis_2160.mp4; do
        "$hs" "$f" cpu 1 >$L/h_cpu.txt 2>/dev/null
        for n in ${SEG_HASH_SESSIONS:-1 3}; do
          "$hs" "$f" nvdec "$n" >$L/h_gpu.txt 2>$L/h_gpu.err
          if cmp -s $L/h_cpu.txt $L/h_gpu.txt; then
            echo "same: $(basename "$f"), NVDEC $n sessions: $(tail -1 $L/h_cpu.txt) ($(tail -1 $L/h_gpu.err | sed 's/.*at the end: //'))"
          else
            echo "DIFFER: $(basename "$f"), NVDEC $n sessions: $(grep -m1 '^error' $L/h_gpu.txt)"
          fi
        done
      done
      for p in ${SEG_PAIRS:-1080 2160}; do
        FFMPEG=/tmp/libav/bin/ffmpeg RUNS=${SEG_RUNS:-2} SESSIONS=${SEG_SESSIONS:-1 2 3 4} \
          timeout $(($(left) - 20)) bench/segments.sh /tmp/build-gpu/exactvmaf \
          $sd/ref_$p.mkv $sd/dis_$p.mp4 >$L/segments_$p.txt 2>&1
        echo "rc $?"; grep -vE '^$' $L/segments_$p.txt | tail -12
      done ;;
    segrepeat)  # issue 24: NVDEC in segments, SEG_REPEAT times (default 10) over the small
      # clips with 2 and 3 sessions: a frame read before NVDEC mapped it
      # shows as a hash that differs now and then
      hs=/tmp/build-gpu/tests/decode_frame_hashes
      same=0 differ=0
      for f in hevc_gop.mkv h264_gop.mp4 hevc10_small.mp4 hevc_gop_small.mkv; do
        "$hs" .device/nv/clips/$f cpu >$L/r_cpu.txt 2>/dev/null
        for ((i = 0; i < ${SEG_REPEAT:-10}; i++)); do
          for n in 2 3; do
            "$hs" .device/nv/clips/$f nvdec $n >$L/r_gpu.txt 2>$L/r_gpu.err
            if cmp -s $L/r_cpu.txt $L/r_gpu.txt; then same=$((same + 1)); else
              differ=$((differ + 1)); echo "DIFFER: $f $n round $i: $(diff $L/r_cpu.txt $L/r_gpu.txt | head -2 | tr '\n' ' ')"; fi
          done
        done
      done
      echo "segrepeat: $same equal, $differ differ ($(tail -1 $L/r_gpu.err | sed 's/.*at the end: //'))" ;;
    encoded)  # issue 24: the routes of one encoded pair, 1080p and 4K (bench/encoded_input.sh)
      nfe=$root/.device/netflix-vmaf; [ "${ENC_NF:-1}" = 0 ] && nfe=  # ENC_NF=0: no Netflix row
      for p in ${ENC_PAIRS:-1080 2160}; do
        FFMPEG=/tmp/libav/bin/ffmpeg NETFLIX_VMAF=$nfe RUNS=${ENC_RUNS:-1} \
          timeout $(($(left) - 30)) bench/encoded_input.sh /tmp/build-gpu/exactvmaf \
          .device/rates/ref_$p.mkv .device/rates/dis_$p.mp4 >$L/encoded_$p.txt 2>&1
        echo "rc $?"; grep -vE '^$' $L/encoded_$p.txt | tail -14
      done ;;
    ladder)  # issue 24: the 4K ladder, one reference and six encodes (bench/ladder.sh);
      # LADDER_NF=0: no Netflix row; LADDER_SPLIT: ladder.sh's SPLIT (a --decoder list: NVDEC
      # and the CPU together; default: the 4K streams NVDEC, the rest the CPU; "" none);
      # LADDER_SCORES: more rounds with these SCORE arguments, '|'-separated (e.g. "-n
      # --feature psnr": the input path's own bound)
      nfv=$root/.device/netflix-vmaf; [ "${LADDER_NF:-1}" = 0 ] && nfv=
      FFMPEG=/tmp/libav/bin/ffmpeg NETFLIX_VMAF=$nfv RUNS=${LADDER_RUNS:-1} SPLIT=${LADDER_SPLIT-nvdec,cpu,cpu,cpu,cpu,nvdec} \
        timeout $(($(left) - 20)) bench/ladder.sh /tmp/build-gpu/exactvmaf ${LADDER_FRAMES:-300} \
        .device/rates/ref_2160.mkv .device/rates/ladder_*.mp4 >$L/ladder.txt 2>&1
      echo "rc $?"; grep -vE '^$' $L/ladder.txt | tail -12
      IFS='|' read -r -a extra <<<"${LADDER_SCORES:-}"
      for sc in "${extra[@]}"; do
        FFMPEG=/tmp/libav/bin/ffmpeg SCORE="$sc" RUNS=${LADDER_RUNS:-1} timeout $(($(left) - 20)) \
          bench/ladder.sh /tmp/build-gpu/exactvmaf ${LADDER_FRAMES:-300} .device/rates/ref_2160.mkv \
          .device/rates/ladder_*.mp4 >$L/ladder_more.txt 2>&1
        echo "rc $?"; grep -vE '^$' $L/ladder_more.txt | tail -12
      done ;;
    pictures)
      timeout 150 /tmp/build-gpu/tests/gpu_device_pictures >$L/device_pictures.txt 2>&1
      echo "rc $?"; grep -E 'DIFFERENT|failed|passed' $L/device_pictures.txt | tail -8 ;;
    ctest)
      # CTEST_ONLY: a -R pattern; CTEST_EXCLUDE: the -E pattern (default: the long searches);
      # CTEST_GUARD: its seconds (default 150; gpu_parity_quick alone takes about 380)
      (cd /tmp/build-gpu && timeout $(($(left) > ${CTEST_GUARD:-150} + 25 ? ${CTEST_GUARD:-150} : $(left) - 25)) \
        ctest -L gpu ${CTEST_ONLY:+-R "$CTEST_ONLY"} \
        -E "${CTEST_EXCLUDE:-heatmaps|float_search|psnr_hvs_search|cambi_search|speed_v1|ssim_noise|python}" \
        --output-on-failure >$L/ctest_gpu.txt 2>&1)
      echo "rc $?"; grep -E 'Test +#|tests passed|tests failed' $L/ctest_gpu.txt | tail -40
      # a passing test prints nothing through ctest: the gate's table is in its full log
      cp /tmp/build-gpu/Testing/Temporary/LastTest.log $L/ctest_gpu_full.log 2>/dev/null ;;
    python)
      OUT=$L/python BENCH_FRAMES=${BENCH_FRAMES:-600} timeout $(($(left) - 15)) \
        tests/python/gpu_run.sh "$root/.device/debs" >$L/python_gpu.txt 2>&1
      echo "rc $?"
      grep -E '^==|passed|failed|skipped|rc |fps|copies|equal|differ|Error' $L/python_gpu.txt | head -30 ;;
    profile)
      cc -O2 -shared -fPIC bench/profile/compat_timing.c -o /tmp/ct.so -ldl &&
        cc -O2 bench/profile/copy_rate.c -o /tmp/copy_rate && /tmp/copy_rate
      for size in ${PROFILE_SIZES:-1920x1080 3840x2160}; do
        r=/tmp/prof_ref.yuv d=/tmp/prof_dis.yuv
        n=$([ $size = 1920x1080 ] && echo 600 || echo 300)
        python3 bench/synth_frames.py ${size%x*} ${size#*x} $n 25 24 >$r
        python3 bench/synth_frames.py ${size%x*} ${size#*x} $n 26 64 >$d
        raw=(-f rawvideo -pix_fmt yuv420p -s $size -r 24)
        tc=(python3 bench/profile/thread_cpu.py .device/ffmpeg -nostdin -v error "${raw[@]}" -i $d "${raw[@]}" -i $r)
        ev=(env LD_LIBRARY_PATH=/tmp/ev/lib:$LD_LIBRARY_PATH LD_PRELOAD=/tmp/ct.so)
        for k in 1 2; do
          echo "$size null:"; "${ev[@]}" "${tc[@]}" -map 0:v -map 1:v -f null - 2>&1 | tail -2
          echo "$size libvmaf cuda:"; "${ev[@]}" "${tc[@]}" -lavfi "[0:v][1:v]libvmaf" -f null - 2>&1 | tail -3
          echo "$size filter bound (frames discarded, GPU hidden):"; CUDA_VISIBLE_DEVICES= COMPAT_DISCARD=1 \
            "${ev[@]}" "${tc[@]}" -lavfi "[0:v][1:v]libvmaf" -f null - 2>&1 | grep -v pooled | tail -3
        done
        echo "$size libvmaf cuda, each call traced:"; COMPAT_TRACE=1 "${ev[@]}" "${tc[@]}" \
          -lavfi "[0:v][1:v]libvmaf" -f null - 2>&1 | tail -14
        echo "$size libvmaf cpu 16 threads:"; CUDA_VISIBLE_DEVICES= LD_LIBRARY_PATH=/tmp/ev/lib:$LD_LIBRARY_PATH \
          LD_PRELOAD=/tmp/ct.so "${tc[@]}" -lavfi "[0:v][1:v]libvmaf=n_threads=16" -f null - 2>&1 | tail -3
      done
      rm -f /tmp/prof_*.yuv ;;
    ssimulacra2)
      (cd /tmp/build-gpu && timeout 200 ctest -L gpu -R ssimulacra2 --output-on-failure >$L/s2_ctest.txt 2>&1)
      echo "rc $?"; grep -E 'Test +#|tests passed|tests failed' $L/s2_ctest.txt
      timeout 120 /tmp/build-gpu/exactvmaf-parity --only ssimulacra2 --corpus $CORPUS --threads 16 >$L/s2_gate.txt 2>&1
      echo "gate rc $?"; grep -E 'DIFFERENT|REFUSED' $L/s2_gate.txt | head -5; tail -3 $L/s2_gate.txt
      timeout $(($(left) - 40)) /tmp/build-gpu/exactvmaf-parity --vmaf-search ${S2_FRAMES:-1000000} \
        --features "ssimulacra2;ssimulacra2:matrix=bt709" --min-size 8x8 --max-size 64x64 \
        --threads 16 --twin-threads 16 --seed 20261203 --verbose >$L/s2_search.txt 2>&1
      echo "search rc $?"; tail -3 $L/s2_search.txt ;;
    metrics)
      (cd /tmp/build-gpu && timeout 200 ctest -L gpu -R xpsnr --output-on-failure >$L/xpsnr_ctest.txt 2>&1)
      echo "rc $?"; grep -E 'Test +#|tests passed|tests failed' $L/xpsnr_ctest.txt
      timeout 240 /tmp/build-gpu/exactvmaf-parity --vmaf-search ${XPSNR_FRAMES:-1000000} \
        --features "xpsnr;xpsnr:frame_rate=60" --min-size 48x48 --max-size 128x128 \
        --depths 8,9,10,12,14,16 --threads 16 --twin-threads 16 --seed 20261204 --verbose \
        >$L/xpsnr_search.txt 2>&1
      echo "search rc $?"; tail -2 $L/xpsnr_search.txt
      s2tool=
      if [ -x .device/s2/ssimulacra2 ]; then  # libjxl's tool and its shared libraries
        printf '#!/bin/sh\nLD_LIBRARY_PATH=%s exec %s "$@"\n' "$root/.device/s2" \
          "$root/.device/s2/ssimulacra2" >/tmp/s2run && chmod +x /tmp/s2run && s2tool=/tmp/s2run
      fi
      NETFLIX_VMAF=$root/.device/netflix-vmaf bench/metrics_4k.sh /tmp/build-gpu/exactvmaf .device/xpsnr-ffmpeg "$s2tool" $L/metrics_4k \
        >$L/metrics_4k.txt 2>&1
      echo "rc $?"; tail -24 $L/metrics_4k.txt ;;
    twins4k)  # the twins' own rate at 4K: frames already on the device (tests/python/bench_gpu.c)
      cuda=/usr/local/cuda
      a=$(find /tmp/build-gpu -name libexactvmaf.a | head -1)
      gcc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Iinclude -I$cuda/include tests/python/bench_gpu.c \
        -o /tmp/bench_gpu_c "$a" -L$cuda/lib64 -lcudart_static -lstdc++ -ldl -lrt -lpthread -lm \
        ${j:+-L$(dirname "$j")} -ljansson || echo "bench_gpu.c: build failed"
      python3 bench/synth_frames.py 3840 2160 60 25 24 >/tmp/t4_r.yuv
      python3 bench/synth_frames.py 3840 2160 60 26 64 >/tmp/t4_d.yuv
      for f in ${TWINS:-xpsnr ssimulacra2}; do  # "model": vmaf_v0.6.1
        echo "$f, 60 4K frames on the device, 3 rounds (s to flush, fps, -, backend, s to close, fps):"
        timeout 120 /tmp/bench_gpu_c /tmp/t4_r.yuv /tmp/t4_d.yuv 3840 2160 60 3 0 ${f/#model/}; echo "rc $?"
      done
      rm -f /tmp/t4_*.yuv ;;
    cores)  # issue 23: bench/vs_netflix.sh against Netflix's CLI (.device/netflix-vmaf)
      (cd /tmp/build-gpu && timeout 120 ctest -R cambi -L gpu --output-on-failure >$L/cambi_gpu.txt 2>&1)
      echo "cambi gpu tests: rc $?: $(grep -E 'tests passed|tests failed' $L/cambi_gpu.txt)"
      chmod +x .device/netflix-vmaf
      NETFLIX_VMAF=$root/.device/netflix-vmaf EV_SHARED_DIR=/tmp/shared \
        MODELS="${CORE_MODELS:-vmaf_v0.6.1 vmaf_v1.0.16_3d0h}" SIZES="${CORE_SIZES:-1920x1080 3840x2160}" \
        THREADS="${CORE_THREADS:-1 2 4 8 12 16}" BITS="${CORE_BITS:-8}" RUNS=${CORE_RUNS:-2} \
        EV_ARGS="${CORE_CPUMASK:+--cpumask $CORE_CPUMASK}" NF_ARGS="${CORE_CPUMASK:+--cpumask $CORE_CPUMASK}" \
        timeout $(($(left) - 40)) bench/vs_netflix.sh /tmp/build-gpu >$L/cores.txt 2>&1
      echo "rc $?"; grep '^|' $L/cores.txt
      c=$(ls /tmp/ev-clips/ref_3840x2160_*_8.yuv 2>/dev/null | head -1)
      if [ -n "$c" ]; then  # --threads far beyond the cores: one warning, memory bounded
        a=(-r "$c" -d "${c/ref_/dis_}" --width 3840 --height 2160 --pixel_format 420 --bitdepth 8
           --threads 1000000 --frame_cnt 8 --backend cpu -o /dev/null)
        /tmp/build-gpu/exactvmaf "${a[@]}" 2>&1 | tail -2
        echo "threads 1000000 (wall s, peak KB): $(python3 bench/measure.py /tmp/build-gpu/exactvmaf "${a[@]}" | awk '{print $1, $3}')"
      fi ;;
    cores10)  # issue 23's 10-bit rows (after cores: its build, the same Netflix)
      NETFLIX_VMAF=$root/.device/netflix-vmaf EV_SHARED_DIR=/tmp/shared \
        MODELS="${CORE_MODELS:-vmaf_v0.6.1 vmaf_v1.0.16_3d0h}" SIZES="${CORE10_SIZES:-1920x1080}" \
        THREADS="${CORE_THREADS:-1 2 4 8 12 16}" BITS=10 RUNS=${CORE_RUNS:-2} \
        timeout $(($(left) - 40)) bench/vs_netflix.sh /tmp/build-gpu >$L/cores10.txt 2>&1
      echo "rc $?"; grep '^|' $L/cores10.txt ;;
    stages)  # issue 23: each stage of a model alone at each thread count (bench/stages.sh), and
      # the engine's schedule line of the whole model (BENCH_DEBUG=1 bench_features)
      sz=${STAGE_SIZE:-3840x2160}; n=${STAGE_FRAMES:-40}; k=$([ $sz = 3840x2160 ] && echo 2 || echo 1)
      src=$CORPUS/aitzgorri_1920x1080_yuv420p
      for x in ref:ref dis:x264crf30; do
        f=/tmp/ev-clips/${x%%:*}_${sz}_${n}_8.yuv; mkdir -p /tmp/ev-clips
        [ -s $f ] || /tmp/build-gpu/bench/bench_clip ${src}_${x#*:}.yuv 1920 1080 $k $n $f 8
      done
      SIZE=$sz FRAMES=$n THREADS="${STAGE_THREADS:-1 8 16}" RUNS=1 STAGES="${STAGE_LIST:-motion cambi=cambi_high_res_speedup=1080 adm vif speed_chroma model:vmaf_v1.0.16_3d0h model:vmaf_v0.6.1}" \
        timeout $(($(left) - 60)) bench/stages.sh /tmp/build-gpu 2>&1 | tee $L/stages.txt
      for m in ${STAGE_MODELS:-vmaf_v1.0.16_3d0h}; do
        for t in ${STAGE_SCHEDULE_THREADS:-16}; do
          BENCH_DEBUG=1 timeout 60 /tmp/build-gpu/bench/bench_features --model path=$root/model/$m.json \
            --size $sz --threads $t --frames ${STAGE_SCHEDULE_FRAMES:-48} 2>&1 | grep -E 'schedule|fps' | tail -3
        done
      done ;;
    ceiling)  # issue 23: the host's own bound on frame-level parallelism: CPU topology, then
      # K independent one-thread processes at once (no shared state at all) against one alone
      lscpu | grep -E 'Model name|Thread|Core|Socket|NUMA node|L2|L3'
      echo "thread siblings of cpu0: $(cat /sys/devices/system/cpu/cpu0/topology/thread_siblings_list)"
      for m in ${CEIL_MODELS:-vmaf_v1.0.16_3d0h vmaf_v0.6.1}; do
        c=$(ls /tmp/ev-clips/ref_3840x2160_*_8.yuv 2>/dev/null | head -1)
        [ -n "$c" ] || { echo "no 4K clip (run the cores stage first)"; break; }
        n=$(basename "$c" | cut -d_ -f3)
        a=(-r "$c" -d "${c/ref_/dis_}" -w 3840 -h 2160 -p 420 -b 8 -q --model path=$root/model/$m.json
           --threads 1 -o /dev/null)
        for prog in exactvmaf netflix; do
          exe=/tmp/build-gpu/exactvmaf; extra=(--backend cpu)
          [ $prog = netflix ] && { exe=$root/.device/netflix-vmaf; extra=(); }
          for k in ${CEIL_K:-1 4 8 16}; do
            t0=$(date +%s.%N)
            for i in $(seq $k); do "$exe" "${a[@]}" "${extra[@]}" >/dev/null 2>&1 & done; wait
            t1=$(date +%s.%N)
            awk -v m=$m -v p=$prog -v k=$k -v n=$n -v a=$t0 -v b=$t1 'BEGIN {
              printf "| %s | %s | %d processes | %.1f fps together | %.2f fps each |\n", m, p, k, k * n / (b - a), n / (b - a) }'
          done
        done
      done ;;
    *) echo "unknown stage $stage" ;;
  esac
done
tar czf "$OUT/logs.tgz" -C /tmp logs
echo "done ($(left) s left)"
