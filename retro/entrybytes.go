package retro

import "unsafe"

// EntryBytes returns the memory of one entry of a MateSearch's table for positions coded as
// K (the table is one flat array of them beside an array of their 4-byte tags), before a
// search exists: a memory budget divided by it gives NewMateSearch's maxEntries.
// MateSearch.EntryBytes is the same number.
func EntryBytes[K comparable]() int { return int(unsafe.Sizeof(entry[K]{}) + unsafe.Sizeof(uint32(0))) }
