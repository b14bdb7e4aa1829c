package syntax

/*
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
static int wisp_trim(void) { return malloc_trim(0); }
#else
static int wisp_trim(void) { return 0; }
#endif
*/
import "C"

// ReleaseMemory returns the C heap's free memory to the operating system
// where the C library allows it (glibc keeps freed memory in its arenas
// otherwise, so closed trees would still count in the process's RSS). It
// takes a few milliseconds on a large heap: call it after closing large
// trees, not on every keystroke.
func ReleaseMemory() {
	C.wisp_trim()
}
