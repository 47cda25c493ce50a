// The MPI runner's default sanitizer options (read by AddressSanitizer at start-up in the
// ASan+UBSan build; an unused function otherwise). Open MPI keeps allocations of its own, and of
// the components it loads and unloads, until exit, so LeakSanitizer would report them in every rank
// at MPI_Finalize. Leak checking is off for this binary alone: the sweep code it runs is the same
// as `clustertwin sweep --threads`, which the sanitizer build still checks for leaks.
extern "C" __attribute__((used, visibility("default"))) const char* __asan_default_options() {
  return "detect_leaks=0";
}
