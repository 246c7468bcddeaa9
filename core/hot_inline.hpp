#pragma once
// COLLNOISE_HOT_INLINE: a function of an engine's inner loop, forced inline into it.
//
// Why forced: the schedule engine's loop keeps its run in registers only while every handler and
// the queue's push and pop are inlined into it (engine/schedules/engine/schedule_engine_impl.hpp
// says what each one gained). Why not in sanitized builds: there the forced inlining of every
// engine instance (each kind of schedule, noise, observer and counter) into its loop made one
// translation unit take over half an hour and 9 GB to compile, and a sanitized build checks what
// the code does, not how fast it does it. GCC tells an AddressSanitizer build by
// __SANITIZE_ADDRESS__.
#if defined(__SANITIZE_ADDRESS__)
#define COLLNOISE_HOT_INLINE
#else
#define COLLNOISE_HOT_INLINE [[gnu::always_inline]]
#endif
