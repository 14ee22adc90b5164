package importer

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/lawcalc/annealing/lawcore"
)

// Each record of a TensorBoard event file (written by TensorFlow, PyTorch's SummaryWriter,
// tensorboardX, JAX/Flax) is a protobuf Event. The reader takes, from
// tensorboard/compat/proto/event.proto, summary.proto, tensor.proto and tensor_shape.proto:
//
//	Event            step = 2 (int64), summary = 5 (Summary)
//	Summary          value = 1 (repeated Value)
//	Value            tag = 1, node_name = 7 (the tag of old writers), simple_value = 2 (float),
//	                 tensor = 8 (TensorProto), metadata = 9 (SummaryMetadata)
//	SummaryMetadata  plugin_data = 1 (PluginData: plugin_name = 1)
//	TensorProto      dtype = 1 (DT_FLOAT = 1, DT_DOUBLE = 2), tensor_shape = 2,
//	                 tensor_content = 4, float_val = 5, double_val = 6 (packed or not)
//	TensorShapeProto dim = 2 (Dim: size = 1)
//
// A scalar is a simple_value (TensorFlow 1, PyTorch, tensorboardX) or a tensor of one float or
// double (TensorFlow 2's tf.summary.scalar, PyTorch's new-style scalars), in float_val or
// double_val or as the little-endian bytes of tensor_content. Tensors of a tag whose metadata
// names another plugin than "scalars" (hparams, text, ...) are not scalars. Every scalar tag is
// a column: those named like a loss are the candidate losses, those named like a learning rate
// the schedule, as in every other format; any tag can be chosen by name. Steps are the
// events' steps; a step logged again (a job restarted from a checkpoint) keeps its last value,
// with a note. Histograms, images, audio, text and graphs are skipped.

// Field numbers of the messages read.
const (
	eventStep    protowire.Number = 2
	eventSummary protowire.Number = 5

	summaryValues protowire.Number = 1

	valueTag      protowire.Number = 1
	valueSimple   protowire.Number = 2
	valueNodeName protowire.Number = 7
	valueTensor   protowire.Number = 8
	valueMetadata protowire.Number = 9

	metadataPluginData protowire.Number = 1
	pluginDataName     protowire.Number = 1

	tensorDtype   protowire.Number = 1
	tensorShape   protowire.Number = 2
	tensorContent protowire.Number = 4
	tensorFloat   protowire.Number = 5
	tensorDouble  protowire.Number = 6

	shapeDim protowire.Number = 2
	dimSize  protowire.Number = 1
)

// TensorFlow's DataType values read as scalars.
const (
	dtFloat  = 1
	dtDouble = 2
)

// scalarsPlugin is the plugin TensorBoard draws scalars with.
const scalarsPlugin = "scalars"

// maxSkippedTags bounds the non-scalar tags remembered for messages.
const maxSkippedTags = 20

// eventReader reads the scalars of one or more event files (the files of one run, in the order
// they were written) into a fileReader.
type eventReader struct {
	set      *fileReader
	plugins  map[string]string // tag -> plugin named by its first metadata
	skipped  []string          // tags holding no scalars, for messages
	skipSeen map[string]bool
	records  int // complete records read, over all files
	files    int // files read
	// nameFiles names the file in notes (a run read from several files).
	nameFiles bool
}

func newEventReader(set *fileReader) *eventReader {
	set.format = FormatTensorBoardEvents
	set.unit = "record"
	set.stepSource, set.stepField = "step", "step"
	set.nameByMetric = true
	return &eventReader{set: set, plugins: map[string]string{}, skipSeen: map[string]bool{}}
}

// readEventFile reads a TensorBoard event file into set.
func readEventFile(set *fileReader, data []byte) error {
	er := newEventReader(set)
	if err := er.read(data); err != nil {
		return err
	}
	return er.finish()
}

// read reads one event file, named by er.set.where. A file cut inside its last record keeps
// the complete records, with a note; one cut inside its first record is an error.
func (er *eventReader) read(data []byte) error {
	set := er.set
	er.files++
	r := &tfRecordReader{where: set.where, data: data}
	for {
		rec, err := r.next()
		if err == io.EOF {
			return nil
		}
		var cut *cutRecord
		if errors.As(err, &cut) {
			if cut.record == 1 {
				return lawcore.Errorf(set.where, r.place(), "the file ends %d bytes into its first record: the event file is cut short and holds no complete record", cut.have)
			}
			note := fmt.Sprintf("%s, as when a log is copied while its run is writing it: that record is left out, and the %d complete records before it are read", cut.Error(), cut.record-1)
			if er.nameFiles {
				note = set.where + ": " + note
			}
			set.notes = append(set.notes, note)
			return nil
		}
		if err != nil {
			return err
		}
		er.records++
		if err := er.event(r, rec); err != nil {
			return err
		}
	}
}

// event reads one Event, the data of record r.n.
func (er *eventReader) event(r *tfRecordReader, rec []byte) error {
	set := er.set
	n := r.n
	var step int64
	var summaries [][]byte
	err := eachField(rec, func(num protowire.Number, typ protowire.Type, v []byte) error {
		switch num {
		case eventStep:
			if typ != protowire.VarintType {
				return errWireType("Event.step")
			}
			x, _ := protowire.ConsumeVarint(v)
			step = int64(x)
		case eventSummary:
			if typ != protowire.BytesType {
				return errWireType("Event.summary")
			}
			b, _ := protowire.ConsumeBytes(v)
			summaries = append(summaries, b)
		}
		return nil
	})
	if err != nil {
		return lawcore.Errorf(set.where, r.place(), "not a TensorBoard event: %v", err)
	}
	counted := false
	for _, summary := range summaries {
		err := eachField(summary, func(num protowire.Number, typ protowire.Type, v []byte) error {
			if num != summaryValues {
				return nil
			}
			if typ != protowire.BytesType {
				return errWireType("Summary.value")
			}
			b, _ := protowire.ConsumeBytes(v)
			sv, err := parseSummaryValue(b)
			if err != nil {
				return err
			}
			if !er.isScalar(sv) {
				return nil
			}
			if !counted {
				counted = true
				if err := set.row(n); err != nil {
					return err
				}
			}
			s, err := set.checkStep(n, float64(step))
			if err != nil {
				return err
			}
			if !set.wants(sv.tag) {
				set.offer(sv.tag)
				return nil
			}
			set.declare(sv.tag)
			series, err := set.seriesFor("", sv.tag, sv.tag, "")
			if err != nil {
				return err
			}
			return set.add(series, n, s, sv.value, "")
		})
		if err != nil {
			var ie *lawcore.InputError
			if errors.As(err, &ie) {
				return err
			}
			return lawcore.Errorf(set.where, r.place(), "the event's summary does not parse: %v", err)
		}
	}
	return nil
}

// isScalar reports whether a summary value is a scalar to read, remembering each tag's plugin
// and the tags that hold something else.
func (er *eventReader) isScalar(sv summaryValue) bool {
	if sv.plugin != "" {
		if _, ok := er.plugins[sv.tag]; !ok && len(er.plugins) < maxSeries {
			er.plugins[sv.tag] = sv.plugin
		}
	}
	ok := sv.scalar
	if ok && sv.fromTensor {
		if p := er.plugins[sv.tag]; p != "" && p != scalarsPlugin {
			ok = false
		}
	}
	if !ok && !er.skipSeen[sv.tag] && len(er.skipped) < maxSkippedTags {
		er.skipSeen[sv.tag] = true
		er.skipped = append(er.skipped, sv.tag)
	}
	return ok
}

// finish checks that the files read held scalars.
func (er *eventReader) finish() error {
	set := er.set
	if set.rows > 0 {
		set.noLoss = lawcore.Errorf(set.where, "", "no scalar tag has values: the tags are %s", quoteNames(set.columns))
		return nil
	}
	what := "an event file"
	if er.files > 1 {
		what = "the event files"
	}
	if len(er.skipped) > 0 {
		return lawcore.Errorf(set.where, "", "%s with no scalars: its %s only histograms, images, text or other tensors (tags %s)",
			what, plural(er.records, "records hold", "record holds"), quoteNames(er.skipped))
	}
	return lawcore.Errorf(set.where, "", "%s with no scalars: its %s no summary values (is it a TFRecord file of something else?)",
		what, plural(er.records, "records hold", "record holds"))
}

// summaryValue is what is read of a Summary.Value.
type summaryValue struct {
	tag        string
	value      float64
	scalar     bool   // value is set
	fromTensor bool   // the value was a tensor (not a simple_value)
	plugin     string // the plugin its metadata names, "" if none
}

// parseSummaryValue reads a Summary.Value.
func parseSummaryValue(b []byte) (summaryValue, error) {
	var sv summaryValue
	var nodeName string
	err := eachField(b, func(num protowire.Number, typ protowire.Type, v []byte) error {
		switch num {
		case valueTag, valueNodeName:
			if typ != protowire.BytesType {
				return errWireType("Value.tag")
			}
			s, _ := protowire.ConsumeBytes(v)
			if num == valueTag {
				sv.tag = tagString(s)
			} else {
				nodeName = tagString(s)
			}
		case valueSimple:
			if typ != protowire.Fixed32Type {
				return errWireType("Value.simple_value")
			}
			x, _ := protowire.ConsumeFixed32(v)
			sv.value, sv.scalar, sv.fromTensor = float64(math.Float32frombits(x)), true, false
		case valueTensor:
			if typ != protowire.BytesType {
				return errWireType("Value.tensor")
			}
			t, _ := protowire.ConsumeBytes(v)
			x, ok, err := parseScalarTensor(t)
			if err != nil {
				return err
			}
			sv.value, sv.scalar, sv.fromTensor = x, ok, true
		case valueMetadata:
			if typ != protowire.BytesType {
				return errWireType("Value.metadata")
			}
			m, _ := protowire.ConsumeBytes(v)
			p, err := parsePluginName(m)
			if err != nil {
				return err
			}
			sv.plugin = p
		}
		return nil
	})
	if sv.tag == "" {
		sv.tag = nodeName
	}
	return sv, err
}

// tagString turns a tag's bytes into a string, invalid UTF-8 replaced.
func tagString(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// parsePluginName reads the plugin name of a SummaryMetadata.
func parsePluginName(b []byte) (string, error) {
	name := ""
	err := eachField(b, func(num protowire.Number, typ protowire.Type, v []byte) error {
		if num != metadataPluginData {
			return nil
		}
		if typ != protowire.BytesType {
			return errWireType("SummaryMetadata.plugin_data")
		}
		pd, _ := protowire.ConsumeBytes(v)
		return eachField(pd, func(num protowire.Number, typ protowire.Type, v []byte) error {
			if num == pluginDataName && typ == protowire.BytesType {
				s, _ := protowire.ConsumeBytes(v)
				name = tagString(s)
			}
			return nil
		})
	})
	return name, err
}

// parseScalarTensor reads a TensorProto holding one float or double; ok is false for any
// other tensor (another type, more or fewer values).
func parseScalarTensor(b []byte) (value float64, ok bool, err error) {
	var dtype uint64
	one := true // every dimension (if any) has size 1
	var content []byte
	var floats, doubles []float64
	err = eachField(b, func(num protowire.Number, typ protowire.Type, v []byte) error {
		switch num {
		case tensorDtype:
			if typ != protowire.VarintType {
				return errWireType("TensorProto.dtype")
			}
			dtype, _ = protowire.ConsumeVarint(v)
		case tensorShape:
			if typ != protowire.BytesType {
				return errWireType("TensorProto.tensor_shape")
			}
			shape, _ := protowire.ConsumeBytes(v)
			all, err := dimsAllOne(shape)
			if err != nil {
				return err
			}
			one = one && all
		case tensorContent:
			if typ != protowire.BytesType {
				return errWireType("TensorProto.tensor_content")
			}
			content, _ = protowire.ConsumeBytes(v)
		case tensorFloat:
			vals, err := appendFixed(floats, typ, v, 4)
			if err != nil {
				return err
			}
			floats = vals
		case tensorDouble:
			vals, err := appendFixed(doubles, typ, v, 8)
			if err != nil {
				return err
			}
			doubles = vals
		}
		return nil
	})
	if err != nil || !one {
		return 0, false, err
	}
	switch {
	case dtype == dtFloat && len(floats) == 1:
		return floats[0], true, nil
	case dtype == dtFloat && len(floats) == 0 && len(content) == 4:
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(content))), true, nil
	case dtype == dtDouble && len(doubles) == 1:
		return doubles[0], true, nil
	case dtype == dtDouble && len(doubles) == 0 && len(content) == 8:
		return math.Float64frombits(binary.LittleEndian.Uint64(content)), true, nil
	}
	return 0, false, nil
}

// appendFixed appends the floats (size 4) or doubles (size 8) of a repeated field, packed or
// not, keeping at most two: a scalar has one.
func appendFixed(vals []float64, typ protowire.Type, v []byte, size int) ([]float64, error) {
	decode := func(b []byte) float64 {
		if size == 4 {
			return float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
		}
		return math.Float64frombits(binary.LittleEndian.Uint64(b))
	}
	switch {
	case typ == protowire.BytesType:
		packed, _ := protowire.ConsumeBytes(v)
		if len(packed)%size != 0 {
			return vals, errors.New("a packed " + strconv.Itoa(size*8) + "-bit float field has a length that is not a multiple of " + strconv.Itoa(size))
		}
		for i := 0; i < len(packed) && len(vals) < 2; i += size {
			vals = append(vals, decode(packed[i:i+size]))
		}
	case typ == protowire.Fixed32Type && size == 4, typ == protowire.Fixed64Type && size == 8:
		if len(vals) < 2 {
			vals = append(vals, decode(v))
		}
	default:
		return vals, errWireType("TensorProto values")
	}
	return vals, nil
}

// dimsAllOne reports whether every dimension of a TensorShapeProto has size 1 (true for rank 0).
func dimsAllOne(shape []byte) (bool, error) {
	all := true
	err := eachField(shape, func(num protowire.Number, typ protowire.Type, v []byte) error {
		if num != shapeDim {
			return nil
		}
		if typ != protowire.BytesType {
			return errWireType("TensorShapeProto.dim")
		}
		dim, _ := protowire.ConsumeBytes(v)
		size := uint64(0)
		err := eachField(dim, func(num protowire.Number, typ protowire.Type, v []byte) error {
			if num == dimSize && typ == protowire.VarintType {
				size, _ = protowire.ConsumeVarint(v)
			}
			return nil
		})
		if size != 1 {
			all = false
		}
		return err
	})
	return all, err
}

// eachField calls fn with every field of the protobuf message b: its number, its wire type
// and its value (the bytes after the tag, as the protowire Consume functions take them).
func eachField(b []byte, fn func(num protowire.Number, typ protowire.Type, v []byte) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		m := protowire.ConsumeFieldValue(num, typ, b)
		if m < 0 {
			return protowire.ParseError(m)
		}
		if err := fn(num, typ, b[:m]); err != nil {
			return err
		}
		b = b[m:]
	}
	return nil
}

// errWireType reports a field of the wrong wire type.
func errWireType(field string) error {
	return errors.New(field + " has the wrong wire type")
}

// eventFileTime is the time in an event file's name (events.out.tfevents.<time>.<host>...),
// by which the files of one run are read in the order they were written; -1 when the name has
// none.
func eventFileTime(name string) float64 {
	base := name[strings.LastIndex(name, "/")+1:]
	_, rest, ok := strings.Cut(base, "tfevents.")
	if !ok {
		return -1
	}
	field, _, _ := strings.Cut(rest, ".")
	t, err := strconv.ParseFloat(field, 64)
	if err != nil {
		return -1
	}
	return t
}

// sortEventFiles orders the paths of one run's event files as they were written: by the time
// in their names, then by name.
func sortEventFiles(paths []string) {
	sort.SliceStable(paths, func(i, j int) bool {
		ti, tj := eventFileTime(paths[i]), eventFileTime(paths[j])
		if ti != tj {
			return ti < tj
		}
		return paths[i] < paths[j]
	})
}
