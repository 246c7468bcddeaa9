#pragma once
// Kernels chosen at run time (docs/portable-builds.md). The default build targets the x86-64
// baseline, so one binary runs on every x86-64 machine of a cluster; the kernels that vectorise
// (the 16-lane pcg32 generator, the tree barrier's per-level minima) are compiled once more for
// x86-64-v3 (AVX2) and x86-64-v4 (AVX-512), and each process picks the best variant its CPU
// supports when it first calls them. The scalar and event-driven engines gain nothing from the
// levels (bench/HISTORY.md, "Portable builds") and have one variant.
//
// Every variant gives the same bits: the variants are one source compiled for other instruction
// sets, the kernels are integer code or IEEE operations done one at a time in source order
// (-ffp-contract=off, and no FMA in the variants' instruction sets at all: a fused multiply-add
// rounds once where the baseline rounds twice), and no variant calls a vector math library.
// tests/core/test_cpu_dispatch.cpp runs every variant the machine supports and compares.
//
// COLLNOISE_CPU_LEVEL=x86-64|x86-64-v3|x86-64-v4 in the environment caps the level (to check that
// results do not depend on it, or to rule a variant out); a build with COLLNOISE_NATIVE=ON
// (-march=native) has one variant only, "native", and does not read the variable.
#include <string>
#include <string_view>

namespace collnoise {

/// The instruction-set levels the kernels have variants for (x86-64 psABI levels; the variants
/// use each level's integer and vector instructions, never FMA).
enum class CpuLevel { kBaseline, kV3, kV4 };

/// "x86-64", "x86-64-v3", "x86-64-v4".
std::string_view cpu_level_name(CpuLevel level);

/// The highest level this CPU (and its operating system) supports.
CpuLevel supported_cpu_level();

/// The level the kernels run at: the supported level, capped by COLLNOISE_CPU_LEVEL. An unknown
/// value is reported once on stderr and ignored (the level changes speed, never results).
CpuLevel selected_cpu_level();

/// Whether this build has a variant per level (x86-64, not built with -march=native).
bool kernels_dispatched();

/// Which of glibc's own variants of exp, log, pow and friends this process runs: glibc picks one
/// per CPU at load time ("FMA" on CPUs with AVX2 and FMA, "SSE2" before), and they round a few
/// results in 10^4 differently, so results are bitwise reproducible only between machines that
/// report the same here (docs/portable-builds.md). Found by evaluating exp and log at inputs
/// where the two differ; "unknown" for another libm.
std::string_view libm_variant();

/// Two lines for `collnoise --version`: the kernels' level and how it was chosen, and the libm
/// variant.
std::string kernel_report();

/// One kernel's variants, a function pointer per level (the same function for every level in a
/// build without dispatch).
template <class Fn>
struct KernelVariants {
  Fn baseline;
  Fn v3;
  Fn v4;

  /// The variant of `level`. Precondition: level <= supported_cpu_level().
  Fn at(CpuLevel level) const {
    switch (level) {
      case CpuLevel::kV4:
        return v4;
      case CpuLevel::kV3:
        return v3;
      case CpuLevel::kBaseline:
        break;
    }
    return baseline;
  }

  /// The variant of the selected level (callers keep it in a static: chosen once per process).
  Fn selected() const { return at(selected_cpu_level()); }
};

}  // namespace collnoise

// The instruction sets of the variants, for [[gnu::target]]: the levels' extensions spelled out
// rather than "arch=x86-64-v3", which would also change the architecture and stop GCC from
// inlining the ordinary (baseline) helpers into the variant; FMA left out on purpose (see above).
#define COLLNOISE_TARGET_V3 \
  "sse3,ssse3,sse4.1,sse4.2,popcnt,cx16,sahf,avx,avx2,bmi,bmi2,f16c,lzcnt,movbe"
#define COLLNOISE_TARGET_V4 COLLNOISE_TARGET_V3 ",avx512f,avx512bw,avx512cd,avx512dq,avx512vl"

// COLLNOISE_DISPATCH: 1 when the variants exist (see kernels_dispatched()).
#if defined(__x86_64__) && !defined(COLLNOISE_NATIVE_BUILD)
#define COLLNOISE_DISPATCH 1
#else
#define COLLNOISE_DISPATCH 0
#endif
