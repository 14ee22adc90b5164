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

	"github.com/lawcalc/annealing/lawcore/input"
	"google.golang.org/protobuf/encoding/protowire"
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
	tags      map[string]string // the tags seen, so that each is one string
	counted   bool              // the event being read is counted as a row
	scalars   bool              // a scalar was read, of any tag
}

func newEventReader(set *fileReader) *eventReader {
	set.format = FormatTensorBoardEvents
	set.unit = "record"
	set.stepSource, set.stepField = "step", "step"
	set.nameByMetric = true
	return &eventReader{set: set, plugins: map[string]string{}, skipSeen: map[string]bool{}, tags: map[string]string{}}
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
		if cut, ok := err.(*cutRecord); ok {
			if cut.record == 1 {
				return input.Errorf(set.where, r.place(), "the file ends %d bytes into its first record: the event file is cut short and holds no complete record", cut.have)
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

// event reads one Event, the data of record r.n: its step first, then its summaries (a
// writer may put the step after them).
func (er *eventReader) event(r *tfRecordReader, rec []byte) error {
	var step int64
	summaries := 0
	f := fields{b: rec}
	for f.next() {
		switch f.num {
		case eventStep:
			if f.want("Event.step", protowire.VarintType) {
				x, _ := protowire.ConsumeVarint(f.v)
				step = int64(x)
			}
		case eventSummary:
			if _, ok := f.bytes("Event.summary"); ok {
				summaries++
			}
		}
	}
	if f.err != nil {
		return input.Errorf(er.set.where, r.place(), "not a TensorBoard event: %v", f.err)
	}
	if summaries == 0 {
		return nil
	}
	er.counted = false
	for f = (fields{b: rec}); ; {
		summary, ok := f.nextBytes(eventSummary, "Event.summary")
		if !ok {
			break
		}
		if err := er.summary(r, step, summary); err != nil {
			return err
		}
	}
	return nil
}

// summary reads the scalars of a Summary logged at step, counting the event as a row at its
// first scalar.
func (er *eventReader) summary(r *tfRecordReader, step int64, summary []byte) error {
	set := er.set
	n := r.n
	f := fields{b: summary}
	for {
		b, ok := f.nextBytes(summaryValues, "Summary.value")
		if !ok {
			break
		}
		sv, err := er.parseSummaryValue(b)
		if err != nil {
			return input.Errorf(set.where, r.place(), "the event's summary does not parse: %v", err)
		}
		if !er.isScalar(sv) {
			continue
		}
		er.scalars = true
		s, err := set.checkStep(n, float64(step))
		if err != nil {
			return err
		}
		if !set.wants(sv.tag) {
			set.offer(sv.tag)
			continue
		}
		// an event is a row when it holds a value read: SummaryWriter writes each tag in an event
		// of its own, and the tags not read (gradient norms, throughput) are no rows of the curves
		if !er.counted {
			er.counted = true
			if err := set.row(n); err != nil {
				return err
			}
		}
		set.declare(sv.tag)
		series, err := set.seriesFor("", sv.tag, sv.tag, "")
		if err != nil {
			return err
		}
		if err := set.add(series, n, s, sv.value, ""); err != nil {
			return err
		}
	}
	if f.err != nil {
		return input.Errorf(set.where, r.place(), "the event's summary does not parse: %v", f.err)
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
	if er.scalars {
		set.noLoss = input.Errorf(set.where, "", "no scalar tag has values: the tags are %s", quoteNames(set.columns))
		return nil
	}
	what := "an event file"
	if er.files > 1 {
		what = "the event files"
	}
	if len(er.skipped) > 0 {
		return input.Errorf(set.where, "", "%s with no scalars: its %s only histograms, images, text or other tensors (tags %s)",
			what, plural(er.records, "records hold", "record holds"), quoteNames(er.skipped))
	}
	return input.Errorf(set.where, "", "%s with no scalars: its %s no summary values (is it a TFRecord file of something else?)",
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
func (er *eventReader) parseSummaryValue(b []byte) (summaryValue, error) {
	var sv summaryValue
	var nodeName string
	f := fields{b: b}
	for f.next() {
		switch f.num {
		case valueTag:
			if t, ok := f.bytes("Value.tag"); ok {
				sv.tag = er.tag(t)
			}
		case valueNodeName:
			if t, ok := f.bytes("Value.node_name"); ok {
				nodeName = er.tag(t)
			}
		case valueSimple:
			if f.want("Value.simple_value", protowire.Fixed32Type) {
				x, _ := protowire.ConsumeFixed32(f.v)
				sv.value, sv.scalar, sv.fromTensor = float64(math.Float32frombits(x)), true, false
			}
		case valueTensor:
			if t, ok := f.bytes("Value.tensor"); ok {
				x, scalar, err := parseScalarTensor(t)
				if err != nil {
					return sv, err
				}
				sv.value, sv.scalar, sv.fromTensor = x, scalar, true
			}
		case valueMetadata:
			if m, ok := f.bytes("Value.metadata"); ok {
				p, err := er.parsePluginName(m)
				if err != nil {
					return sv, err
				}
				sv.plugin = p
			}
		}
	}
	if sv.tag == "" {
		sv.tag = nodeName
	}
	return sv, f.err
}

// tag returns a tag's (or a plugin's) name, the same string for the same name: a file
// repeats a few in every event.
func (er *eventReader) tag(b []byte) string {
	if t, ok := er.tags[string(b)]; ok {
		return t
	}
	t := tagString(b)
	if len(er.tags) < maxSeries {
		er.tags[string(b)] = t
	}
	return t
}

// tagString turns a tag's bytes into a string, invalid UTF-8 replaced.
func tagString(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// parsePluginName reads the plugin name of a SummaryMetadata.
func (er *eventReader) parsePluginName(b []byte) (string, error) {
	name := ""
	f := fields{b: b}
	for {
		pd, ok := f.nextBytes(metadataPluginData, "SummaryMetadata.plugin_data")
		if !ok {
			break
		}
		g := fields{b: pd}
		for g.next() {
			if g.num == pluginDataName && g.typ == protowire.BytesType {
				p, _ := g.bytes("PluginData.plugin_name")
				name = er.tag(p)
			}
		}
		if g.err != nil {
			return "", g.err
		}
	}
	return name, f.err
}

// parseScalarTensor reads a TensorProto holding one float or double; ok is false for any
// other tensor (another type, more or fewer values).
func parseScalarTensor(b []byte) (value float64, ok bool, err error) {
	var dtype uint64
	one := true // every dimension (if any) has size 1
	var content []byte
	var floats, doubles fixedValues
	f := fields{b: b}
	for f.next() {
		switch f.num {
		case tensorDtype:
			if f.want("TensorProto.dtype", protowire.VarintType) {
				dtype, _ = protowire.ConsumeVarint(f.v)
			}
		case tensorShape:
			if shape, ok := f.bytes("TensorProto.tensor_shape"); ok {
				all, err := dimsAllOne(shape)
				if err != nil {
					return 0, false, err
				}
				one = one && all
			}
		case tensorContent:
			content, _ = f.bytes("TensorProto.tensor_content")
		case tensorFloat:
			floats.read(&f, 4)
		case tensorDouble:
			doubles.read(&f, 8)
		}
	}
	if f.err != nil || !one {
		return 0, false, f.err
	}
	switch {
	case dtype == dtFloat && floats.n == 1:
		return floats.first, true, nil
	case dtype == dtFloat && floats.n == 0 && len(content) == 4:
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(content))), true, nil
	case dtype == dtDouble && doubles.n == 1:
		return doubles.first, true, nil
	case dtype == dtDouble && doubles.n == 0 && len(content) == 8:
		return math.Float64frombits(binary.LittleEndian.Uint64(content)), true, nil
	}
	return 0, false, nil
}

// fixedValues counts the values of a repeated float or double field and keeps the first: a
// scalar has one.
type fixedValues struct {
	n     int
	first float64
}

// read reads the field at f, packed or not, of floats (size 4) or doubles (size 8).
func (fv *fixedValues) read(f *fields, size int) {
	decode := func(b []byte) float64 {
		if size == 4 {
			x, _ := protowire.ConsumeFixed32(b)
			return float64(math.Float32frombits(x))
		}
		x, _ := protowire.ConsumeFixed64(b)
		return math.Float64frombits(x)
	}
	var b []byte
	switch {
	case f.typ == protowire.BytesType:
		b, _ = protowire.ConsumeBytes(f.v)
		if len(b)%size != 0 {
			f.err = fmt.Errorf("a packed field of %d-bit floats has a length (%d) that is not a multiple of %d", size*8, len(b), size)
			return
		}
	case f.typ == protowire.Fixed32Type && size == 4, f.typ == protowire.Fixed64Type && size == 8:
		b = f.v
	default:
		f.err = errWireType("TensorProto values")
		return
	}
	if fv.n == 0 && len(b) > 0 {
		fv.first = decode(b)
	}
	fv.n += len(b) / size
}

// dimsAllOne reports whether every dimension of a TensorShapeProto has size 1 (true for rank 0).
func dimsAllOne(shape []byte) (bool, error) {
	all := true
	f := fields{b: shape}
	for {
		dim, ok := f.nextBytes(shapeDim, "TensorShapeProto.dim")
		if !ok {
			break
		}
		size := uint64(0)
		g := fields{b: dim}
		for g.next() {
			if g.num == dimSize && g.typ == protowire.VarintType {
				size, _ = protowire.ConsumeVarint(g.v)
			}
		}
		if g.err != nil {
			return false, g.err
		}
		all = all && size == 1
	}
	return all, f.err
}

// fields iterates over the fields of a protobuf message, with protowire:
//
//	for f := (fields{b: msg}); f.next(); { switch f.num { ... } }
//
// then f.err says whether the message parsed. The typed getters check the field's wire type,
// stopping the iteration with an error naming the field when it is not the one expected.
type fields struct {
	b   []byte           // the rest of the message
	num protowire.Number // the field's number
	typ protowire.Type   // its wire type
	v   []byte           // its value, as the protowire Consume functions take it
	err error
}

// next moves to the next field: false at the end of the message, or at an error.
func (f *fields) next() bool {
	if len(f.b) == 0 || f.err != nil {
		return false
	}
	num, typ, n := protowire.ConsumeTag(f.b)
	if n < 0 {
		f.err = protowire.ParseError(n)
		return false
	}
	m := protowire.ConsumeFieldValue(num, typ, f.b[n:])
	if m < 0 {
		f.err = protowire.ParseError(m)
		return false
	}
	f.num, f.typ, f.v, f.b = num, typ, f.b[n:n+m], f.b[n+m:]
	return true
}

// want reports whether the field has wire type typ, stopping the iteration with an error
// naming the field when it has not.
func (f *fields) want(name string, typ protowire.Type) bool {
	if f.typ != typ {
		f.err = errWireType(name)
		return false
	}
	return true
}

// nextBytes moves to the next field numbered num and returns its bytes, if it is
// length-delimited: false at the end of the message, or at an error.
func (f *fields) nextBytes(num protowire.Number, name string) ([]byte, bool) {
	for f.next() {
		if f.num == num {
			return f.bytes(name)
		}
	}
	return nil, false
}

// bytes returns the field's bytes (a string, a message), if it is length-delimited.
func (f *fields) bytes(name string) ([]byte, bool) {
	if !f.want(name, protowire.BytesType) {
		return nil, false
	}
	b, _ := protowire.ConsumeBytes(f.v)
	return b, true
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
