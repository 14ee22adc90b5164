package auto_test

// Auto compares every registered law: its tests register them all, as the bridge does.
import _ "github.com/lawcalc/annealing/lawcore/laws"
