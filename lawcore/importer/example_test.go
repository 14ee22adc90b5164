package importer_test

import (
	"fmt"

	"github.com/lawcalc/annealing/lawcore/importer"
	lw "github.com/lawcalc/annealing/lawcore/importer/internal/logwrite"
)

// Read recognises a TensorBoard event file by its content and reads its scalar tags: the
// loss, and the learning rate as its schedule.
func ExampleRead() {
	// An event file as PyTorch's SummaryWriter writes it (loss as a simple_value), with the
	// learning rate logged as TensorFlow 2 logs it (a rank-0 double tensor).
	var events [][]byte
	for step, loss := range []float64{4, 3.5, 3.25} {
		events = append(events, lw.Event(int64(100*step),
			lw.Scalar{Tag: "train/loss", Value: loss},
			lw.Scalar{Tag: "train/learning_rate", Value: 3e-4 / float64(step+1), As: lw.TensorDouble}))
	}
	data := lw.EventFile(events...)

	imp, err := importer.Read("events.out.tfevents.1700000000.host.1234.0", data, importer.Choice{})
	if err != nil {
		fmt.Println(err)
		return
	}
	c := imp.Curves[0]
	fmt.Println(imp.Format, c.Name, c.Source.LR)
	for i := range c.Steps {
		fmt.Printf("step %v: loss %v, lr %.3g\n", c.Steps[i], c.Loss[i], c.LR[i])
	}

	// A damaged file names the record at fault.
	data[60] ^= 1
	_, err = importer.Read("events.out.tfevents.1700000000.host.1234.0", data, importer.Choice{})
	fmt.Println(err)
	// Output:
	// tensorboard-events train/loss train/learning_rate
	// step 0: loss 4, lr 0.0003
	// step 100: loss 3.5, lr 0.00015
	// step 200: loss 3.25, lr 0.0001
	// events.out.tfevents.1700000000.host.1234.0: record 2 (byte 40): the data's checksum does not match: the file is corrupt
}

// ReadFiles reads a folder of runs: each run's loss with its learning rates, whatever file
// each was logged to, named after the run's directory.
func ExampleReadFiles() {
	files := []importer.File{
		{Path: "runs/cosine/events.out.tfevents.1700000000.host.1.0", Data: lw.EventFile(
			lw.Event(10, lw.Scalar{Tag: "loss", Value: 4}, lw.Scalar{Tag: "lr", Value: 1e-3}),
			lw.Event(20, lw.Scalar{Tag: "loss", Value: 3.5}, lw.Scalar{Tag: "lr", Value: 5e-4}))},
		{Path: "runs/wsd/version_0/metrics.csv", Data: []byte("epoch,step,train_loss,lr-AdamW\n0,10,4.25,0.001\n0,20,3.75,0.001\n")},
		{Path: "runs/wsd/version_0/hparams.yaml", Data: []byte("lr: 0.001\n")},
		{Path: "runs/mlruns/0/7c2e/metrics/loss", Data: []byte("1700000000000 4.5 10\n1700000000100 4 20\n")},
		{Path: "runs/mlruns/0/7c2e/metrics/lr", Data: []byte("1700000000000 0.002 10\n1700000000100 0.002 20\n")},
		{Path: "runs/mlruns/0/7c2e/tags/mlflow.runName", Data: []byte("constant")},
	}
	imp, err := importer.ReadFiles(files, importer.Choice{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range imp.Curves {
		fmt.Printf("%s: %d steps, lr %v, from %q\n", c.Name, c.Points, c.HasLR, c.Files)
	}
	for _, n := range imp.Notes {
		fmt.Println(n)
	}
	// Output:
	// cosine loss: 2 steps, lr true, from ["runs/cosine/events.out.tfevents.1700000000.host.1.0"]
	// constant loss: 2 steps, lr true, from ["runs/mlruns/0/7c2e/metrics/loss" "runs/mlruns/0/7c2e/metrics/lr"]
	// wsd/version_0 train_loss: 2 steps, lr true, from ["runs/wsd/version_0/metrics.csv"]
	// skipped runs/mlruns/0/7c2e/tags/mlflow.runName: MLflow run metadata, not a metric
	// skipped runs/wsd/version_0/hparams.yaml: not a log format I know
}
