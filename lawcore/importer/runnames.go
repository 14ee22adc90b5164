package importer

import (
	"maps"
	"path"
	"strings"

	"github.com/lawcalc/annealing/lawcore/input"
)

// nameCurves names each run after its directory (less the directories all runs share), or its
// MLflow run name, and each curve "<run> <metric>"; it sets the curves' files.
func nameCurves(done []unitRead, mlflowNames map[string]string) {
	var dirs []string
	for _, d := range done {
		if d.u.dir != "" {
			dirs = append(dirs, d.u.dir)
		}
	}
	runs := runDisplayNames(dirs, mlflowNames)
	seen := map[string]int{}
	dirRun := make([]string, len(done)) // the run each unit's directory names
	for i, d := range done {
		run := runs[d.u.dir]
		switch {
		case run != "" || d.set.format != FormatTensorBoardEvents:
		case d.u.kind == unitEvents && d.u.dir == "" && len(d.u.entries) > 1:
			run = fileStem(d.u.label) // the event files at an archive's top: the archive's run
		default:
			run = fileStem(d.u.entries[0].path)
		}
		dirRun[i] = run
		for _, c := range d.curves {
			c.Files = d.u.files(d.set, c)
			if len(c.Files) > 0 {
				c.File = c.Files[0]
			}
			switch {
			case c.Run != "" && run != "":
				c.Run = run + "/" + c.Run
			case c.Run == "":
				c.Run = run
			}
			if c.Run != "" {
				c.Name = c.Run + " " + c.Metric
			}
			seen[c.Name]++
		}
	}
	// Curves that share a name. Plain files of one directory that each hold the same metric,
	// naming no run of their own, are runs saved a file each (runs/cosine.csv, runs/wsd.csv):
	// each is the run of its file. Any others that still share a name say their file.
	shared := maps.Clone(seen)
	for i, d := range done {
		if d.u.kind != unitFile {
			continue
		}
		for _, c := range d.curves {
			if shared[c.Name] > 1 && c.Run == dirRun[i] {
				seen[c.Name]--
				c.Run = strings.TrimPrefix(dirRun[i]+"/"+fileStem(d.u.entries[0].name), "/")
				c.Name = c.Run + " " + c.Metric
				seen[c.Name]++
			}
		}
	}
	for _, d := range done {
		for _, c := range d.curves {
			if seen[c.Name] > 1 {
				c.Name += " (" + c.File + ")"
			}
		}
	}
}

// runDisplayNames names the runs of the directories given: each directory less the directories all
// share above them ("runs/a", "runs/b" -> "a", "b"; one directory -> its last element, without
// .zip), or its MLflow run name.
func runDisplayNames(dirs []string, mlflowNames map[string]string) map[string]string {
	names := map[string]string{}
	if len(dirs) == 0 {
		return names
	}
	common := strings.Split(path.Dir(dirs[0]), "/")
	for _, d := range dirs[1:] {
		parent := strings.Split(path.Dir(d), "/")
		k := 0
		for k < len(common) && k < len(parent) && common[k] == parent[k] {
			k++
		}
		common = common[:k]
	}
	prefix := strings.Join(common, "/")
	used := map[string]bool{}
	for _, d := range dirs {
		if _, ok := names[d]; ok {
			continue
		}
		name := d
		if prefix != "" && prefix != "." {
			name = strings.TrimPrefix(d, prefix+"/")
		}
		name = strings.TrimSuffix(name, ".zip")
		if mn := mlflowNames[d]; mn != "" {
			if used[mn] {
				mn += " (" + name + ")"
			}
			name = mn
		}
		used[name] = true
		names[d] = name
	}
	return names
}

// pairInFolder joins, in each directory, learning-rate curves read apart from their loss to the
// loss curves of the same run (by PairLR and MergeLR), and returns the curves, the
// learning-rate curves joined left out.
func pairInFolder(done []unitRead) ([]*Curve, []string) {
	var dirs []string
	byDir := map[string][]*Curve{}
	for _, d := range done {
		if _, ok := byDir[d.u.dir]; !ok {
			dirs = append(dirs, d.u.dir)
		}
		byDir[d.u.dir] = append(byDir[d.u.dir], d.curves...)
	}
	var out []*Curve
	var notes []string
	for _, dir := range dirs {
		cs := byDir[dir]
		pairs, pn := PairLR(cs)
		notes = append(notes, pn...)
		joined := map[int]bool{}
		for _, p := range pairs {
			loss, lr := cs[p.Loss], cs[p.LR]
			merged, err := MergeLR(loss, lr)
			if err != nil {
				notes = append(notes, err.Error())
				continue
			}
			merged.Files = append(append([]string(nil), loss.Files...), lr.Files...)
			cs[p.Loss] = merged
			joined[p.LR] = true
		}
		for i, c := range cs {
			if !joined[i] {
				out = append(out, c)
			}
		}
	}
	return out, notes
}

// chooseRuns keeps the curves of the runs chosen (all when none is).
func chooseRuns(where string, curves []*Curve, chosen []string) ([]*Curve, error) {
	if len(chosen) == 0 {
		return curves, nil
	}
	var runs []string
	has := map[string]bool{}
	for _, c := range curves {
		if r := curveRunName(c); !has[r] {
			has[r] = true
			runs = append(runs, r)
		}
	}
	want := map[string]bool{}
	for _, r := range chosen {
		if !has[r] {
			return nil, input.Errorf(where, "", "no run %q: the runs are %s", r, quoteNames(runs))
		}
		want[r] = true
	}
	var out []*Curve
	for _, c := range curves {
		if want[curveRunName(c)] {
			out = append(out, c)
		}
	}
	return out, nil
}

// curveRunName is the run a curve of a folder belongs to: its run, or its name for a file at
// the top.
func curveRunName(c *Curve) string {
	if c.Run != "" {
		return c.Run
	}
	return c.Name
}
