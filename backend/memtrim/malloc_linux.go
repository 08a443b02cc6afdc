package memtrim

/*
#include <malloc.h>
*/
import "C"

// TrimMalloc gives the C heaps' free memory back to the system (the
// toolkit's and WebKit's side of the window allocate there; glibc keeps
// what they freed).
func TrimMalloc() { C.malloc_trim(0) }
