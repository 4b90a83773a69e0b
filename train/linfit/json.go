package linfit

import (
	"encoding/json"
	"math"
)

// heldLoss is a held-out loss as JSON: null where there were no held-out examples (the
// loss is NaN then, which JSON cannot carry).
func heldLoss(x float64) *float64 {
	if math.IsNaN(x) {
		return nil
	}
	return &x
}

// MarshalJSON writes r with held_before and held_after null when nothing was held out.
func (r Report) MarshalJSON() ([]byte, error) {
	type plain Report
	return json.Marshal(struct {
		plain
		HeldBefore *float64 `json:"held_before"`
		HeldAfter  *float64 `json:"held_after"`
	}{plain(r), heldLoss(r.HeldBefore), heldLoss(r.HeldAfter)})
}
