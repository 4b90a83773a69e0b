package record

import "strings"

// Fields is a set of a record's top-level fields. A reader given Fields
// decodes those and skips the rest, which is most of the work saved: the
// per-move statistics are nine tenths of a self-play record's bytes, and an
// opening tree or a rating list never looks at them. Only the checks of
// Validate whose inputs are all decoded are made.
type Fields uint32

// The fields, one per top-level key of a record (datasets/README.md).
const (
	FieldID Fields = 1 << iota
	FieldSeed
	FieldVariant
	FieldStart
	FieldStartName
	FieldMoves
	FieldResult
	FieldTermination
	FieldPlies
	FieldPlayers // names, kinds and configurations
	FieldRules
	FieldStats
	FieldVersion
	FieldStartedAt
	FieldSeconds
	FieldDetail

	// AllFields is the whole record; the zero Fields means it too.
	AllFields = FieldDetail<<1 - 1
)

// fieldNames are the JSON keys, in the order of the constants.
var fieldNames = [...]string{"id", "seed", "variant", "start", "start_name", "moves", "result", "termination",
	"plies", "players", "rules", "stats", "version", "started_at", "seconds", "detail"}

// Has reports whether f holds every field of want.
func (f Fields) Has(want Fields) bool { return f&want == want }

// String lists the fields by their JSON keys: "id,moves,result".
func (f Fields) String() string {
	var names []string
	for i, name := range fieldNames {
		if f&(1<<i) != 0 {
			names = append(names, name)
		}
	}
	return strings.Join(names, ",")
}

// fieldOf returns the field of a JSON key, or 0 for a key records do not
// have (readers ignore those: datasets/README.md, Versioning).
func fieldOf(key []byte) Fields {
	// A switch on the length first keeps this to one or two comparisons.
	switch len(key) {
	case 2:
		if string(key) == "id" {
			return FieldID
		}
	case 4:
		if string(key) == "seed" {
			return FieldSeed
		}
	case 5:
		switch string(key) {
		case "start":
			return FieldStart
		case "moves":
			return FieldMoves
		case "plies":
			return FieldPlies
		case "rules":
			return FieldRules
		case "stats":
			return FieldStats
		}
	case 6:
		switch string(key) {
		case "result":
			return FieldResult
		case "detail":
			return FieldDetail
		}
	case 7:
		switch string(key) {
		case "variant":
			return FieldVariant
		case "players":
			return FieldPlayers
		case "version":
			return FieldVersion
		case "seconds":
			return FieldSeconds
		}
	case 10:
		switch string(key) {
		case "start_name":
			return FieldStartName
		case "started_at":
			return FieldStartedAt
		}
	case 11:
		if string(key) == "termination" {
			return FieldTermination
		}
	}
	return 0
}
