package table

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// SettingKind is the type of a setting's column.
type SettingKind uint8

const (
	SettingInt   SettingKind = iota // INT64
	SettingFloat                    // DOUBLE
	SettingBool                     // BOOLEAN
	SettingText                     // STRING
)

// SettingColumn is a typed column of the players' settings in the games table: Key is the
// key in a player's config, and the column's name beside config in the players struct
// (players.sente.c_puct). The engine's settings table is not this package's to know (the
// analyses read tables without the engine); package selfplay gives the columns of the
// engine's settings (selfplay.SettingColumns).
type SettingColumn struct {
	Key  string
	Kind SettingKind
}

var settingTypes = [...]arrow.DataType{
	SettingInt:   arrow.PrimitiveTypes.Int64,
	SettingFloat: arrow.PrimitiveTypes.Float64,
	SettingBool:  arrow.FixedWidthTypes.Boolean,
	SettingText:  arrow.BinaryTypes.String,
}

// gamesSchema is GamesSchema with a nullable column for each setting in the players'
// structs, after config.
func gamesSchema(settings []SettingColumn) (*arrow.Schema, error) {
	if len(settings) == 0 {
		return GamesSchema, nil
	}
	fields := append([]arrow.Field(nil), playerType.Fields()...)
	for _, s := range settings {
		for _, f := range fields {
			if f.Name == s.Key {
				return nil, fmt.Errorf("table: setting column %q: a player already has a column of that name", s.Key)
			}
		}
		if int(s.Kind) >= len(settingTypes) {
			return nil, fmt.Errorf("table: setting column %q: unknown kind %d", s.Key, s.Kind)
		}
		fields = append(fields, optional(s.Key, settingTypes[s.Kind]))
	}
	player := arrow.StructOf(fields...)
	all := GamesSchema.Fields()
	for i, f := range all {
		if f.Name == "players" {
			all[i] = required("players", arrow.StructOf(required("sente", player), required("gote", player)))
		}
	}
	return arrow.NewSchema(all, nil), nil
}

// appendSettings appends a player's settings to the struct builder pb, whose fields from
// first on are the setting columns: the config's value where it has the setting's key with
// a value of the column's type (a whole number for an integer; true or false, or their text,
// for a boolean), null otherwise.
func appendSettings(pb *array.StructBuilder, first int, settings []SettingColumn, config map[string]any) {
	for i, s := range settings {
		b := pb.FieldBuilder(first + i)
		v, ok := config[s.Key]
		if !ok {
			b.AppendNull()
			continue
		}
		switch s.Kind {
		case SettingInt:
			if n, ok := wholeNumber(v); ok {
				b.(*array.Int64Builder).Append(n)
				continue
			}
		case SettingFloat:
			if x, ok := number(v); ok {
				b.(*array.Float64Builder).Append(x)
				continue
			}
		case SettingBool:
			// A record's config writes a check setting as the text true or false.
			switch v {
			case true, "true":
				b.(*array.BooleanBuilder).Append(true)
				continue
			case false, "false":
				b.(*array.BooleanBuilder).Append(false)
				continue
			}
		case SettingText:
			if t, ok := v.(string); ok {
				b.(*array.StringBuilder).Append(t)
				continue
			}
		}
		b.AppendNull()
	}
}

// number is a config value as a float64: decoded JSON gives float64, a record made in
// memory the setting's own type.
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case float32:
		return float64(n), true
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	}
	return 0, false
}

func wholeNumber(v any) (int64, bool) {
	switch n := v.(type) {
	case int:
		return int64(n), true
	case int64:
		return n, true
	}
	x, ok := number(v)
	if !ok || x != math.Trunc(x) || math.Abs(x) > 1<<53 {
		return 0, false
	}
	return int64(x), true
}
