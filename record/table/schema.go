package table

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/extensions"

	"github.com/shogilab/shogilab/record"
)

// Metadata keys of the tables' Parquet footers.
const (
	// TableKey says which table a file holds: "games" or "positions".
	TableKey = "shogilab.table"
	// PositionsKey, in a games table, is the file name of its positions
	// table, in the same directory: a name alone, without a directory.
	PositionsKey = "shogilab.positions"
	// PairKey, in both tables, is the SHA-256 (hex) of the games they were
	// written from: of the lines "ID MOVE MOVE ...\n" (the moves in USI,
	// one space apart) of the games in the tables' order. A games table and
	// a positions table are a pair when their digests are equal. Tables made
	// before it have none, and pair only with each other.
	PairKey = "shogilab.pair"
	// FormatKey is the tables' format version; columns are only ever added.
	FormatKey = "shogilab.format"
	format    = "1"
)

// Table names, the values of TableKey.
const (
	GamesTable     = "games"
	PositionsTable = "positions"
)

// jsonText is the type of a free-form object: JSON text, with Parquet's JSON
// logical type, which DuckDB reads as its JSON type.
var jsonText = func() arrow.DataType {
	t, err := extensions.NewJSONType(arrow.BinaryTypes.String)
	if err != nil {
		panic(err) // a string storage type is always accepted
	}
	return t
}()

func required(name string, t arrow.DataType) arrow.Field { return arrow.Field{Name: name, Type: t} }
func optional(name string, t arrow.DataType) arrow.Field {
	return arrow.Field{Name: name, Type: t, Nullable: true}
}

var playerType = arrow.StructOf(
	required("name", arrow.BinaryTypes.String),
	required("kind", arrow.BinaryTypes.String),
	optional("config", jsonText),
)

// GamesSchema is the games table: one row per game, a column per field of a
// record but the statistics, which are in the positions table.
// datasets/README.md documents each column.
var GamesSchema = arrow.NewSchema([]arrow.Field{
	required("id", arrow.PrimitiveTypes.Int64),
	required("seed", arrow.PrimitiveTypes.Uint64),
	required("variant", arrow.BinaryTypes.String),
	required("start", arrow.BinaryTypes.String),
	optional("start_name", arrow.BinaryTypes.String),
	required("moves", arrow.ListOfNonNullable(arrow.BinaryTypes.String)),
	required("result", arrow.BinaryTypes.String),
	required("termination", arrow.BinaryTypes.String),
	required("plies", arrow.PrimitiveTypes.Int32),
	required("players", arrow.StructOf(required("sente", playerType), required("gote", playerType))),
	required("rules", arrow.StructOf(
		required("repetition", arrow.BinaryTypes.String),
		required("max_plies", arrow.PrimitiveTypes.Int32),
	)),
	required("version", arrow.BinaryTypes.String),
	optional("detail", arrow.BinaryTypes.String),
	optional("started_at", &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"}),
	optional("seconds", arrow.PrimitiveTypes.Float64),
}, nil)

var topMoveType = arrow.StructOf(
	required("move", arrow.BinaryTypes.String),
	required("visits", arrow.PrimitiveTypes.Int64),
)

// PositionsSchema is the positions table: one row per move of every game,
// the position before it and what the mover's search saw there. The
// statistics columns are null where the record has no statistics entry
// for the move. Rows are in the games table's order (Convert writes it by
// id), and by ply within a game.
var PositionsSchema = arrow.NewSchema([]arrow.Field{
	required("game_id", arrow.PrimitiveTypes.Int64),
	required("ply", arrow.PrimitiveTypes.Int32),
	required("sfen", arrow.BinaryTypes.String),
	required("side", arrow.BinaryTypes.String),
	required("move", arrow.BinaryTypes.String),
	optional("visits", arrow.PrimitiveTypes.Int64),
	optional("value", arrow.PrimitiveTypes.Float64),
	optional("top", arrow.ListOfNonNullable(topMoveType)),
	optional("score_cp", arrow.PrimitiveTypes.Int64),
	optional("mate", arrow.PrimitiveTypes.Int64),
	optional("ms", arrow.PrimitiveTypes.Float64),
	required("result", arrow.BinaryTypes.String),
	// The game's outcome for the side to move (1 win, 0.5 draw, 0 loss), how it ended and
	// its length, repeated on each of its rows, so that a row is a training example alone.
	required("score", arrow.PrimitiveTypes.Float64),
	required("termination", arrow.BinaryTypes.String),
	required("plies", arrow.PrimitiveTypes.Int32),
	// Since issue 32, after the columns above (columns are only ever added): whether the
	// move was a playout cap's fast search, not a policy target, and the policy target.
	// Null where the record has no statistics entry; fast is false in the rows of records
	// from before it, whose moves are all targets. A table written before has neither
	// column, and reads as all targets without policies.
	optional("fast", arrow.FixedWidthTypes.Boolean),
	optional("policy", arrow.ListOfNonNullable(policyMoveType)),
}, nil)

var policyMoveType = arrow.StructOf(
	required("move", arrow.BinaryTypes.String),
	required("p", arrow.PrimitiveTypes.Float64),
)

// gameColumns maps each record field to the games table's column that holds
// it; statistics are the positions table's.
var gameColumns = map[record.Fields]string{
	record.FieldID: "id", record.FieldSeed: "seed", record.FieldVariant: "variant", record.FieldStart: "start",
	record.FieldStartName: "start_name", record.FieldMoves: "moves", record.FieldResult: "result",
	record.FieldTermination: "termination", record.FieldPlies: "plies", record.FieldPlayers: "players",
	record.FieldRules: "rules", record.FieldVersion: "version", record.FieldStartedAt: "started_at",
	record.FieldSeconds: "seconds", record.FieldDetail: "detail",
}
