"""Build the exactvmaf package offline: pip install --no-build-isolation ./python

The extension exactvmaf._exactvmaf links the C library found, in this order:
  EXACTVMAF_BUILD_DIR=<cmake build dir>: that build's static libexactvmaf.a (and, from its
      exactvmaf.pc, the libraries it needs: jansson, libav*, CUDA's static runtime), with the
      source tree's headers; nothing needs to be installed;
  pkg-config exactvmaf (an installed exactvmaf, PKG_CONFIG_PATH for another prefix): the shared
      libexactvmaf.so, with its folder as the extension's RUNPATH; EXACTVMAF_STATIC=1 links the
      installed static library instead (pkg-config --static).
"""
import os
import re
import shlex
import subprocess

from setuptools import Extension, setup



def pkg_config(*args):
    try:
        out = subprocess.run(["pkg-config", *args], check=True, capture_output=True, text=True)
    except (OSError, subprocess.CalledProcessError) as e:
        raise SystemExit(f"exactvmaf: pkg-config {' '.join(args)} failed ({e}); install "
                         "exactvmaf (cmake --install), set PKG_CONFIG_PATH, or set "
                         "EXACTVMAF_BUILD_DIR to a CMake build folder") from None
    return shlex.split(out.stdout)


def split_flags(flags):
    inc, libdirs, libs, extra = [], [], [], []
    for f in flags:
        if f.startswith("-I"):
            inc.append(f[2:])
        elif f.startswith("-L"):
            libdirs.append(f[2:])
        elif f.startswith("-l"):
            libs.append(f[2:])
        else:
            extra.append(f)
    return inc, libdirs, libs, extra


def from_build_dir(build):
    cache = open(os.path.join(build, "CMakeCache.txt")).read()
    source = re.search(r"^CMAKE_HOME_DIRECTORY:INTERNAL=(.*)$", cache, re.M).group(1)
    pc = open(os.path.join(build, "exactvmaf.pc")).read()
    field = lambda k: (re.search(rf"^{k}:(.*)$", pc, re.M) or [None, ""])[1].strip()  # noqa: E731
    flags = shlex.split(field("Libs.private"))
    requires = field("Requires.private")
    if requires:
        flags += pkg_config("--libs", *requires.replace(",", " ").split())
    inc, libdirs, libs, extra = split_flags(flags)
    if "cudart_static" in " ".join(flags):  # a CUDA build: its host code is C++
        libs.append("stdc++")
    return dict(include_dirs=[os.path.join(source, "include")], library_dirs=libdirs,
                libraries=libs, extra_objects=[os.path.join(build, "libexactvmaf.a")],
                extra_link_args=extra)


def from_pkg_config():
    static = os.environ.get("EXACTVMAF_STATIC") == "1"
    flags = pkg_config("--cflags", "--libs", *(["--static"] if static else []), "exactvmaf")
    inc, libdirs, libs, extra = split_flags(flags)
    libdir = pkg_config("--variable=libdir", "exactvmaf")
    kw = dict(include_dirs=inc, library_dirs=libdirs, libraries=libs, extra_link_args=extra)
    if static:
        kw["libraries"] = [lib for lib in libs if lib != "exactvmaf"]
        kw["extra_objects"] = [os.path.join(libdir[0], "libexactvmaf.a")]
    elif libdir and libdir[0] not in ("/usr/lib", "/usr/lib/x86_64-linux-gnu", "/usr/local/lib"):
        kw["runtime_library_dirs"] = libdir
    return kw


build_dir = os.environ.get("EXACTVMAF_BUILD_DIR")
link = from_build_dir(os.path.abspath(build_dir)) if build_dir else from_pkg_config()

setup(
    name="exactvmaf",
    version="0.1.0",
    description="VMAF and its companion metrics, bit for bit equal to Netflix libvmaf (CPU "
                "and CUDA), from numpy arrays, GPU tensors and files; Dask across workers",
    license="BSD-2-Clause-Patent",
    packages=["exactvmaf"],
    package_data={"exactvmaf": ["py.typed", "*.pyi"]},
    python_requires=">=3.9",
    install_requires=["numpy"],
    extras_require={"dask": ["distributed"], "pandas": ["pandas"]},
    ext_modules=[Extension(
        "exactvmaf._exactvmaf", ["exactvmaf/_exactvmaf.c"],
        define_macros=[("_POSIX_C_SOURCE", "200809L")],
        extra_compile_args=["-std=c11", "-ffp-contract=off", "-fno-fast-math",
                            "-fvisibility=hidden"],
        **link)],
)
