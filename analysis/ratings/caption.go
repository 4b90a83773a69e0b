package ratings

import (
	"fmt"
	"strings"
)

// Caption is the caption of Plot of res: the ratings of players (who they are, such as
// "the MCTS engine at 100, 200 and 400 playouts a move"), fitted from games (what games
// they are), with the model, the anchor, and each player's Elo, interval and results.
func Caption(res *Fit, players, games string) string {
	var elo []string
	for _, p := range res.Players {
		elo = append(elo, fmt.Sprintf("%s %+.0f ± %.0f (%d games, %d–%d–%d)", p.Name, p.Elo, (p.Interval[1]-p.Interval[0])/2, p.Games, p.Wins, p.Draws, p.Losses))
	}
	anchor := res.Anchor + " rated 0"
	if res.Anchor == "mean" {
		anchor = "their mean rated 0"
	}
	return fmt.Sprintf("Elo ratings of %s, fitted by maximum likelihood (%s), %s, with 95%% intervals from the observed information, from %s. Elo (wins–draws–losses): %s.",
		players, res.Model.Description(), anchor, games, strings.Join(elo, "; "))
}

// Description says what the model is, in words for a caption.
func (m Model) Description() string {
	switch m {
	case Davidson:
		return "Davidson's model, in which a draw is an outcome of its own"
	case HalfPoint:
		return "the Bradley–Terry model with a draw as half a win"
	}
	return string(m)
}
