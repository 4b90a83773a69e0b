package selfplay

import "runtime/debug"

// Version is the toolkit version written in records: the module version of
// the running binary, or for a build from a checkout "devel" with the VCS
// revision (and "+dirty" for uncommitted changes) when Go recorded them.
func Version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	v := "devel"
	var rev, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if rev != "" {
		v += "-" + rev[:min(len(rev), 12)] + dirty
	}
	return v
}
