//go:build linux

// Command steptime runs a command and prints the wall time and the CPU time it took, counting
// every process it started, even those whose parent did not wait for them (Chromium's renderers
// and helpers, a server started in a process group of its own): it makes itself their
// subreaper (Linux), so that they are reaped here and their CPU time counted.
//
//	go run ./scripts/steptime [-o FILE] [-label NAME] COMMAND [ARG...]
//
// It prints (or appends to FILE) one line, tab-separated: the label (default the command),
// wall seconds, user CPU seconds, system CPU seconds and the exit status; and exits with the
// command's status. scripts/time-test.sh times make test's steps with it.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// prSetChildSubreaper is prctl's PR_SET_CHILD_SUBREAPER (linux/prctl.h).
const prSetChildSubreaper = 36

func main() {
	out := flag.String("o", "", "append the line to this file instead of printing it")
	label := flag.String("label", "", "the line's first field (default: the command)")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: steptime [-o FILE] [-label NAME] COMMAND [ARG...]")
		os.Exit(2)
	}
	if *label == "" {
		*label = strings.Join(flag.Args(), " ")
	}
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		fmt.Fprintln(os.Stderr, "steptime: prctl(PR_SET_CHILD_SUBREAPER):", errno)
		os.Exit(1)
	}
	start := time.Now()
	cmd := exec.Command(flag.Arg(0), flag.Args()[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	status := 0
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			fmt.Fprintln(os.Stderr, "steptime:", err)
			os.Exit(1)
		}
		status = exit.ExitCode()
	}
	wall := time.Since(start)
	// Descendants orphaned on the way are ours now: reap those that have ended, and give those
	// still ending (a browser's helpers) a few seconds.
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
		if err != nil { // ECHILD: none left
			break
		}
		if pid == 0 {
			time.Sleep(50 * time.Millisecond)
		}
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		fmt.Fprintln(os.Stderr, "steptime:", err)
		os.Exit(1)
	}
	secs := func(tv syscall.Timeval) float64 { return float64(tv.Sec) + float64(tv.Usec)/1e6 }
	line := fmt.Sprintf("%s\t%.1f\t%.1f\t%.1f\t%d\n", *label, wall.Seconds(), secs(ru.Utime), secs(ru.Stime), status)
	if *out == "" {
		fmt.Print(line)
	} else {
		f, err := os.OpenFile(*out, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			_, err = f.WriteString(line)
			err = errors.Join(err, f.Close())
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "steptime:", err)
			os.Exit(1)
		}
	}
	os.Exit(status)
}
