#include "core/cpu_features.hpp"

#include <fmt/format.h>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace collnoise {
namespace {

CpuLevel detect_cpu_level() {
#if COLLNOISE_DISPATCH
  // libgcc's checks include the operating system's support for the AVX and AVX-512 registers.
  __builtin_cpu_init();
  if (__builtin_cpu_supports("x86-64-v4")) return CpuLevel::kV4;
  if (__builtin_cpu_supports("x86-64-v3")) return CpuLevel::kV3;
#endif
  return CpuLevel::kBaseline;
}

CpuLevel level_from_environment(CpuLevel supported) {
  if (!COLLNOISE_DISPATCH) return supported;  // one variant: nothing to choose
  const char* text = std::getenv("COLLNOISE_CPU_LEVEL");
  if (text == nullptr || *text == '\0') return supported;
  for (const CpuLevel level : {CpuLevel::kBaseline, CpuLevel::kV3, CpuLevel::kV4}) {
    if (cpu_level_name(level) != text) continue;
    if (level > supported) {
      std::fprintf(
          stderr,
          "collnoise: warning: COLLNOISE_CPU_LEVEL=%s: this CPU supports up to %s, which is "
          "used\n",
          text, cpu_level_name(supported).data());
      return supported;
    }
    return level;
  }
  std::fprintf(stderr,
               "collnoise: warning: COLLNOISE_CPU_LEVEL=%s is not one of x86-64, x86-64-v3, "
               "x86-64-v4: ignored\n",
               text);
  return supported;
}

// exp and log at inputs where glibc 2.36's FMA and SSE2 variants round differently (found by
// comparing both over random inputs, GLIBC_TUNABLES=glibc.cpu.hwcaps=-FMA giving the SSE2 one).
struct LibmProbe {
  double (*function)(double);
  double input;
  std::uint64_t fma_bits;
  std::uint64_t sse2_bits;
};

double exp_of(double x) {
  return std::exp(x);
}
double log_of(double x) {
  return std::log(x);
}

}  // namespace

std::string_view cpu_level_name(CpuLevel level) {
  switch (level) {
    case CpuLevel::kV4:
      return "x86-64-v4";
    case CpuLevel::kV3:
      return "x86-64-v3";
    case CpuLevel::kBaseline:
      break;
  }
  return "x86-64";
}

CpuLevel supported_cpu_level() {
  static const CpuLevel level = detect_cpu_level();
  return level;
}

CpuLevel selected_cpu_level() {
  static const CpuLevel level = level_from_environment(supported_cpu_level());
  return level;
}

bool kernels_dispatched() {
  return COLLNOISE_DISPATCH != 0;
}

std::string_view libm_variant() {
  static const LibmProbe probes[] = {
      {exp_of, -0x1.a2d3f8c3a885p+0, std::bit_cast<std::uint64_t>(0x1.8ed83c96bbbb5p-3),
       std::bit_cast<std::uint64_t>(0x1.8ed83c96bbbb6p-3)},
      {log_of, 0x1.5aa2c13efe25bp-1, std::bit_cast<std::uint64_t>(-0x1.8f69497fa7e42p-2),
       std::bit_cast<std::uint64_t>(-0x1.8f69497fa7e43p-2)},
  };
  int fma = 0;
  int sse2 = 0;
  for (const auto& probe : probes) {
    // volatile: the compiler would otherwise fold the call with its own (correctly rounded) math.
    volatile double input = probe.input;
    const auto bits = std::bit_cast<std::uint64_t>(probe.function(input));
    fma += bits == probe.fma_bits;
    sse2 += bits == probe.sse2_bits;
  }
  if (fma == std::ssize(probes)) return "glibc FMA variants";
  if (sse2 == std::ssize(probes)) return "glibc SSE2 variants";
  return "unknown";
}

std::string kernel_report() {
#if COLLNOISE_DISPATCH
  const std::string kernels =
      fmt::format("kernels: {} (this CPU supports {}; built for x86-64, chosen at run time)",
                  cpu_level_name(selected_cpu_level()), cpu_level_name(supported_cpu_level()));
#elif defined(COLLNOISE_NATIVE_BUILD)
  const std::string kernels = "kernels: native (built with -march=native for the build machine)";
#else
  const std::string kernels = "kernels: portable (one variant: no levels on this architecture)";
#endif
  return fmt::format("{}\nmath library: {}", kernels, libm_variant());
}

}  // namespace collnoise
