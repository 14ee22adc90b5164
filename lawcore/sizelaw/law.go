package lawcore

import (
	"math"
	"strconv"
)

// The model-size extension of the law (the paper's Sec. 4.4, Eq. 5):
//
//	L(s, N) = L0 + A*S1^(-alpha) + B*N^(-beta) - C*S2*N^gamma
//
// with N the number of non-embedding parameters. At a fixed N it is the plain law with
// L0' = L0 + B*N^(-beta) and C' = C*N^gamma (SizeParams.At), so everything that predicts
// with Params predicts a size too.
//
// Identifiability: the data only see L0 + B*N^(-beta) at the fitted sizes. With curves of two
// sizes, three numbers (L0, B, beta) must explain two, so beta cannot be fitted; the fit then
// holds beta at SizeFitRequest.Beta (default DefaultSizeBeta, the Chinchilla paper's exponent
// of N) and says so. Predictions at the fitted sizes do not depend on that choice;
// predictions at other sizes do. Curves of one size cannot fit B, beta or gamma at all.

// DefaultSizeBeta is the exponent of N held fixed when only two sizes are fitted: Hoffmann
// et al. (2022) fit L = E + A/N^0.34 + B/D^0.28.
const DefaultSizeBeta = 0.34

// SizeParams are the parameters of the model-size law.
type SizeParams struct {
	// L0, A, Alpha, B, Beta, C and Gamma are the law's constants; Lambda is the decay factor
	// the areas use.
	L0     float64 `json:"L0"`
	A      float64 `json:"A"`
	Alpha  float64 `json:"alpha"`
	B      float64 `json:"B"`
	Beta   float64 `json:"beta"`
	C      float64 `json:"C"`
	Gamma  float64 `json:"gamma"`
	Lambda float64 `json:"lambda"`
}

// Loss is the law at areas s1, s2 and size n.
func (p SizeParams) Loss(s1, s2, n float64) float64 {
	return p.L0 + p.A*math.Pow(s1, -p.Alpha) + p.B*math.Pow(n, -p.Beta) - p.C*s2*math.Pow(n, p.Gamma)
}

// At returns the plain law at size n: L0 + B*n^(-beta) as L0 and C*n^gamma as C.
func (p SizeParams) At(n float64) Params {
	return Params{L0: p.L0 + p.B*math.Pow(n, -p.Beta), A: p.A, Alpha: p.Alpha, C: p.C * math.Pow(n, p.Gamma), Lambda: p.Lambda}
}

// Validate checks that every parameter is finite, L0, A, alpha, B, beta, C are not negative,
// and lambda is in [0, 1). Gamma may be any finite number.
func (p SizeParams) Validate() error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"L0", p.L0}, {"A", p.A}, {"alpha", p.Alpha}, {"B", p.B}, {"beta", p.Beta}, {"C", p.C}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) || f.v < 0 {
			return Errorf("params", f.name, "must be a finite number, zero or more, got %v", f.v)
		}
	}
	if math.IsNaN(p.Gamma) || math.IsInf(p.Gamma, 0) {
		return Errorf("params", "gamma", "must be a finite number, got %v", p.Gamma)
	}
	if err := checkLambda(p.Lambda); err != nil {
		return Within("params", err)
	}
	return nil
}

// SizeCurve is an observed curve of a model of Size non-embedding parameters.
type SizeCurve struct {
	Curve
	// Size is N, the model's number of non-embedding parameters (such as 25e6).
	Size float64 `json:"size"`
}

// SizeFitRequest is a fit of the model-size law: curves tagged with their model size and the
// settings of a fit request (lambda is fixed: a number, default 0.999).
type SizeFitRequest struct {
	// Curves are the observed curves; those with role "fit" enter the objective, those with
	// role "validate" (of any size, fitted or not) are predicted and scored.
	Curves []SizeCurve `json:"curves"`
	// Lambda is the decay factor (fixed; default 0.999).
	Lambda *float64 `json:"lambda,omitempty"`
	// WarmupSteps is the warmup of LR-list curves and the default warmup of schedules.
	WarmupSteps int `json:"warmupSteps"`
	// WarmupConvention is "peak" (default) or "actual".
	WarmupConvention string `json:"warmupConvention,omitempty"`
	// HuberDelta is the Huber loss delta (default 1e-3).
	HuberDelta float64 `json:"huberDelta,omitempty"`
	// Beta, if given, holds beta at this value. With fewer than three fitted sizes beta is
	// held at this value or DefaultSizeBeta.
	Beta *float64 `json:"beta,omitempty"`
	// Points thins the fitted lines of SizeFitLines to about this many steps (0: every step).
	Points int `json:"points,omitempty"`
}

// DecodeSizeFitRequest parses a model-size fit request's JSON, rejecting unknown fields.
func DecodeSizeFitRequest(data []byte) (SizeFitRequest, error) {
	var r SizeFitRequest
	if err := decodeStrict(data, &r); err != nil {
		return SizeFitRequest{}, &InputError{Where: "sizefit request", Msg: err.Error()}
	}
	return r, nil
}

// lambda returns the request's lambda, checked.
func (r SizeFitRequest) lambda() (float64, error) {
	if r.Lambda == nil {
		return DefaultLambda, nil
	}
	return *r.Lambda, checkLambda(*r.Lambda)
}

// checkSize reports a model size that is not a positive finite number.
func checkSize(i int, c SizeCurve) error {
	if !(c.Size > 0) || math.IsInf(c.Size, 0) {
		return Errorf(curveLabel(i, c.Name), "size", "the model size N must be a positive number of parameters (such as 25e6), got %v", c.Size)
	}
	return nil
}

// SizeFitLines predicts every curve of a size fit request at its own size, at every step (or
// about req.Points steps): the lines a page draws through the observed points.
func SizeFitLines(req SizeFitRequest, p SizeParams) ([]Prediction, error) {
	var out []Prediction
	for i, c := range req.Curves {
		if err := checkSize(i, c); err != nil {
			return nil, err
		}
		pr := PredictRequest{Params: p.At(c.Size), WarmupSteps: req.WarmupSteps, WarmupConvention: req.WarmupConvention,
			Points: req.Points, Curves: []PredictCurve{{Name: c.Name, Schedule: c.Schedule, LR: c.LR}}}
		got, err := Predict(pr)
		if err != nil {
			return nil, Within("curves["+strconv.Itoa(i)+"]", err)
		}
		out = append(out, got...)
	}
	return out, nil
}
