package auto

import (
	"fmt"

	"github.com/lawcalc/annealing/lawcore"
)

// autoWarning is the auto fit's warning when the chosen candidate predicts its held-out data
// far worse than it fits the rest, and worse than the paper predicts (heldOutFloor).
func autoWarning(chosen lawcore.CandidateScore) (lawcore.Warning, bool) {
	if !lawcore.PredictsWorse(chosen.HeldOut, chosen.InSample) {
		return lawcore.Warning{}, false
	}
	return lawcore.Warning{Kind: "held-out", Message: fmt.Sprintf(
		"on the data auto held out, the %s predicts %.0f times worse than it fits (%.2f%% against %.2f%%): expect predictions of other schedules to miss by more than the fit suggests",
		chosen.Label, chosen.HeldOut/chosen.InSample, 100*chosen.HeldOut, 100*chosen.InSample)}, true
}
