package main

import (
	"context"

	"github.com/shogilab/shogilab/internal/cli"

	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/shogilab/shogilab/solver"
)

type verifyReport struct {
	File     string `json:"file"`
	Kind     string `json:"kind"` // "proof" (an upper bound) or "certificate" (a lower bound)
	SFEN     string `json:"sfen"`
	Attacker string `json:"attacker"`
	Plies    int    `json:"plies"`
	Entries  int    `json:"entries"`
	OK       bool   `json:"ok"`
	Claim    string `json:"claim"`
	Hole     string `json:"first_hole,omitempty"`
}

func runVerify(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var asJSON bool
	fs := flag.NewFlagSet("solve verify", flag.ContinueOnError)
	fs.BoolVar(&asJSON, "json", false, "print one JSON object instead of the verdict")
	if err := parseFlags(fs, args, stdout, `usage: solve verify FILE [--json]

Checks a proof file (a mate within N plies: an upper bound) or a disproof certificate (no
mate within N plies: a lower bound), plain or compressed (gzip, xz), on its own, with the rules engine's move generator, and
prints the verdict; on failure, the first hole and the line of moves that reaches it. Exits
with status 1 if the file does not hold.`); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return cli.Usagef("want one file, got %d arguments", fs.NArg())
	}
	path := fs.Arg(0)
	f, err := solver.OpenFile(path)
	if err != nil {
		return err
	}
	defer f.Close()
	// The file is read as a stream, never whole: the readers stop at their stated limits
	// (solver.MaxEntries, MaxLineBytes, MaxFileBytes) and quote bad input by a short prefix.
	r := bufio.NewReader(f)
	format, err := solver.FileFormat(r)
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	rep := verifyReport{File: path}
	var checkErr error
	switch format {
	case solver.ProofFormat:
		root, attacker, proof, err := solver.ReadProof(r)
		if err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		rep.Kind, rep.SFEN, rep.Attacker, rep.Plies, rep.Entries = "proof", root.SFEN(), colorName(attacker), proof.Plies, len(proof.Moves)
		rep.Claim = fmt.Sprintf("mate in at most %d plies", proof.Plies)
		checkErr = solver.CheckProof(root, proof)
	case solver.CertificateFormat:
		root, attacker, cert, err := solver.ReadCertificate(r)
		if err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		rep.Kind, rep.SFEN, rep.Attacker, rep.Plies, rep.Entries = "certificate", root.SFEN(), colorName(attacker), cert.Plies, len(cert.Replies)
		rep.Claim = fmt.Sprintf("no mate within %d plies", cert.Plies)
		checkErr = solver.CheckCertificate(root, cert)
	}
	rep.OK = checkErr == nil
	if checkErr != nil {
		rep.Hole = checkErr.Error()
	}
	if asJSON {
		if err := json.NewEncoder(stdout).Encode(rep); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(stdout, "file      %s (%s, %d entries)\nposition  %s (attacker %s)\nclaim     %s\n", rep.File, rep.Kind, rep.Entries, rep.SFEN, rep.Attacker, rep.Claim)
		if rep.OK {
			fmt.Fprintln(stdout, "verdict   holds")
		} else {
			fmt.Fprintf(stdout, "verdict   FAILS: %s\n", rep.Hole)
		}
	}
	if !rep.OK {
		return fmt.Errorf("%s: the %s does not hold", path, rep.Kind)
	}
	return nil
}
