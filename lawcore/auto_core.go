//go:build lawcore_core

package lawcore

import (
	"context"
	"errors"
)

// fitAuto in the page's core build (-tags lawcore_core): auto is not in it. The core never gets
// here, since its bridge sends every auto fit to the full module (wasm's needsFull).
func fitAuto(context.Context, FitRequest, func(float64)) (*FitResult, error) {
	return nil, errors.New("auto: this is the core build of lawcore, which leaves auto out; use the full build")
}
