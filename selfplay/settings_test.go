package selfplay

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/engine"
	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/record/table"
	"github.com/shogilab/shogilab/usi"
)

// settingsTable is the README's table of engine settings as the settings table
// (engine.AllSettings) makes it.
func settingsTable() string {
	var b strings.Builder
	b.WriteString("| setting | USI type | values | default | what it does |\n| --- | --- | --- | --- | --- |\n")
	for _, s := range engine.AllSettings() {
		name := "`" + s.Name + "`"
		for _, a := range s.Aliases {
			name += " (or `" + a + "`)"
		}
		doc := s.Doc
		if s.PerGame {
			doc += "; set by a match, not in a player spec"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", name, s.USIOption().Type, s.Range(), s.Default, doc)
	}
	return b.String()
}

// TestSettingsAgree holds the three places that name the engine's settings to its table:
// the options the USI engine announces (asked over the protocol), the keys a player spec
// takes (and its help lists), and the README's table.
func TestSettingsAgree(t *testing.T) {
	// The USI engine, over the protocol.
	in := strings.NewReader("usi\nquit\n")
	pr, pw := io.Pipe()
	go func() {
		usi.NewServer(engine.New(), pw).Serve(in)
		pw.Close()
	}()
	var announced []usi.Option
	sc := bufio.NewScanner(pr)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "option ") {
			o, err := usi.ParseOption(sc.Text())
			if err != nil {
				t.Fatal(err)
			}
			announced = append(announced, o)
		}
	}
	table := engine.AllSettings()
	if len(announced) != len(table) {
		t.Fatalf("the engine announces %d options, the table has %d settings", len(announced), len(table))
	}
	for i, s := range table {
		o := announced[i]
		want := usi.Option{Name: s.Name, Type: s.USIOption().Type, Default: s.Default, Vars: s.Choices}
		if s.Kind == engine.Int {
			want.Min, want.Max = s.Min, s.Max
		}
		if o.Name != want.Name || o.Type != want.Type || o.Default != want.Default || o.Min != want.Min || o.Max != want.Max || !slices.Equal(o.Vars, want.Vars) {
			t.Errorf("the engine announces %+v; the table says %+v", o, want)
		}
	}

	// The player specs: every setting a player may set is a key, in any case, and the help
	// lists it with its values and default.
	help := SpecHelp()
	for _, s := range table {
		for _, name := range append([]string{s.Name, strings.ToLower(s.Name), "option." + strings.ToUpper(s.Name)}, s.Aliases...) {
			spec, err := ParsePlayerSpec("mcts:playouts=1,"+name+"="+s.Default, PlayerSpec{})
			switch {
			case s.PerGame && err == nil:
				t.Errorf("a player spec sets %s, which the match sets", name)
			case !s.PerGame && err != nil:
				t.Errorf("a player spec does not take %s: %v", name, err)
			case !s.PerGame && (len(spec.Options) != 1 || spec.Options[0] != Option{s.Name, s.Default}):
				t.Errorf("%s=%s: options %v", name, s.Default, spec.Options)
			}
		}
		line := fmt.Sprintf("%-16s %s; default %s", s.Name, s.Range(), s.Default)
		if listed := strings.Contains(help, line); listed == s.PerGame {
			t.Errorf("the spec help lists %s: %v, want %v", s.Name, listed, !s.PerGame)
		}
	}

	// The README.
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if want := settingsTable(); !strings.Contains(string(readme), want) {
		t.Errorf("README.md lacks the table of engine settings; it should read\n%s", want)
	}

	// The USI contract of docs/architecture.md names every option, in the table's order.
	arch, err := os.ReadFile("../docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	_, item, _ := strings.Cut(string(arch), "\n- options (`usi` lists them")
	item, _, _ = strings.Cut(item, "\n- ")
	var listed, names []string
	for _, m := range regexp.MustCompile("`([A-Za-z_]+)`").FindAllStringSubmatch(item, -1) {
		if m[1] != "usi" && m[1] != "selfplay" {
			listed = append(listed, m[1])
		}
	}
	for _, s := range table {
		names = append(names, s.Name)
	}
	if !slices.Equal(listed, names) {
		t.Errorf("docs/architecture.md#usi lists the options %v; the table has %v", listed, names)
	}
}

// TestSettingColumns: the games table's setting columns are the settings a player spec
// takes, by their config keys, each with the column type of its kind.
func TestSettingColumns(t *testing.T) {
	cols := SettingColumns()
	i := 0
	for _, s := range engine.AllSettings() {
		if s.PerGame {
			continue
		}
		if i >= len(cols) {
			t.Fatalf("no column for %s", s.Name)
		}
		want := map[engine.Kind]table.SettingKind{engine.Int: table.SettingInt, engine.Float: table.SettingFloat,
			engine.Check: table.SettingBool, engine.Choice: table.SettingText, engine.Text: table.SettingText}[s.Kind]
		if c := cols[i]; c.Key != s.Key() || c.Kind != want {
			t.Errorf("column %d is %+v; want %s of kind %d for %s", i, c, s.Key(), want, s.Name)
		}
		i++
	}
	if i != len(cols) {
		t.Errorf("%d columns; %d settings", len(cols), i)
	}
}

// TestResignWords: the record format's words for when the engine resigns are the engine
// setting's, under its config key.
func TestResignWords(t *testing.T) {
	s, _ := engine.FindSetting("Resign")
	if s.Key() != record.ConfigResign || engine.ResignProven.String() != record.ResignProven || engine.ResignNever.String() != record.ResignNever ||
		!slices.Equal(s.Choices, []string{record.ResignProven, record.ResignNever}) {
		t.Errorf("the setting %s (%v) and the record's %s (%s, %s) disagree", s.Key(), s.Choices, record.ConfigResign, record.ResignProven, record.ResignNever)
	}
	spec, err := ParsePlayerSpec("mcts:playouts=10,Resign=never", PlayerSpec{})
	if err != nil {
		t.Fatal(err)
	}
	if got := spec.Record().Resign(); got != record.ResignNever {
		t.Errorf("a Resign=never player's record says %q", got)
	}
}
