package bushi_test

import (
	"fmt"

	"github.com/shogilab/shogilab/rules/bushi"
)

// Two forward rolls bring the bottom face up; in the default layout it is an F face that then
// gazes forward with its sword on the forward edge: check, and half of a mate.
func ExampleRoll() {
	r, _ := bushi.NewRules(bushi.DefaultLayout())
	o := bushi.Identity
	for range 2 {
		o = bushi.Roll(o, bushi.RollForward)
	}
	face, gaze, swords := r.Top(o)
	fmt.Println(o, face, gaze, swords, r.Checks(o))
	// Output: -z/-y -z +y [+y] true
}

func ExampleParseLayout() {
	l, err := bushi.ParseLayout("+z F +y; -z F -y; +y L +z; -y R +z; +x L +z; -x R +z")
	if err != nil {
		panic(err)
	}
	fmt.Print(l)
	_, err = bushi.ParseLayout("+z F +z")
	fmt.Println(err)
	// Output:
	// +z F +y
	// -z F -y
	// +y L +z
	// -y R +z
	// +x L +z
	// -x R +z
	// bushi: layout line 1: face +z: gaze +z is along the face's normal, not across the face
}

func ExampleRules_LegalMoves() {
	r, _ := bushi.NewRules(bushi.DefaultLayout())
	p := bushi.Position{Phase: bushi.Playing, ToMove: bushi.Black,
		Cube: [2]bushi.Orientation{bushi.OrientationOf(bushi.MinusY, bushi.PlusZ), bushi.OrientationOf(bushi.MinusZ, bushi.MinusY)}}
	fmt.Println(p)
	fmt.Println(r.LegalMoves(p, nil)) // White gives check and Black does not: Black must turn
	// Output:
	// black -y/+z, white -z/-y, black to move
	// [turn]
}
