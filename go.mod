module github.com/lawcalc/annealing

go 1.26.8

require (
	github.com/andybalholm/brotli v1.2.8
	github.com/hack-pad/safejs v0.1.0
	gonum.org/v1/gonum v0.17.0
	google.golang.org/protobuf v1.36.12
)

require golang.org/x/tools v0.30.0 // indirect
