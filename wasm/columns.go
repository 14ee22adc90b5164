package main

import (
	"reflect"
)

// Columns: the large arrays of a request or an answer cross between JavaScript and Go as
// typed arrays, one set per item (per curve), not as JSON. Which arrays are columns is
// declared on lawcore's request and result types: the field that lists the items is tagged
// `columns:"each"`, and within an item (and the structs it holds, such as a curve's
// schedule) each []float64 that may be a column is tagged `column:"name"`.

// columns are the large arrays of one item, by name ("steps", "loss", "lr", ...).
type columns map[string][]float64

// bindColumns fills, for each item of v's `columns:"each"` field, the tagged arrays the JSON
// left out from that item's columns. v is a pointer to a request.
func bindColumns(v any, in []columns) {
	items := eachField(reflect.ValueOf(v))
	if !items.IsValid() {
		return
	}
	for i := 0; i < items.Len() && i < len(in); i++ {
		fill(items.Index(i), in[i])
	}
}

// fill sets the tagged nil arrays of v (a struct, or a pointer to one) from cols, and
// descends into the structs it holds.
func fill(v reflect.Value, cols columns) {
	v = reflect.Indirect(v)
	if v.Kind() != reflect.Struct {
		return
	}
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f, fv := t.Field(i), v.Field(i)
		if !f.IsExported() {
			continue
		}
		if name := f.Tag.Get("column"); name != "" && fv.IsNil() {
			if col, ok := cols[name]; ok {
				fv.Set(reflect.ValueOf(col))
			}
			continue
		}
		switch {
		case f.Type.Kind() == reflect.Struct, f.Type.Kind() == reflect.Pointer && f.Type.Elem().Kind() == reflect.Struct && !fv.IsNil():
			fill(fv, cols)
		}
	}
}

// answerColumns collects, for each item of v's `columns:"each"` field, its tagged arrays that
// are set: the columns of the answer.
func answerColumns(v any) []columns {
	items := eachField(reflect.ValueOf(v))
	if !items.IsValid() {
		return nil
	}
	out := make([]columns, items.Len())
	for i := range out {
		out[i] = columns{}
		collect(items.Index(i), out[i])
	}
	return out
}

// collect adds the set tagged arrays of v (and of the structs it holds) to cols.
func collect(v reflect.Value, cols columns) {
	v = reflect.Indirect(v)
	if v.Kind() != reflect.Struct {
		return
	}
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f, fv := t.Field(i), v.Field(i)
		if !f.IsExported() {
			continue
		}
		if name := f.Tag.Get("column"); name != "" {
			if !fv.IsNil() {
				cols[name] = fv.Interface().([]float64)
			}
			continue
		}
		if f.Type.Kind() == reflect.Struct || f.Type.Kind() == reflect.Pointer && f.Type.Elem().Kind() == reflect.Struct {
			collect(fv, cols)
		}
	}
}

// eachField finds the slice tagged `columns:"each"` in v (a struct or a pointer to one,
// searched through embedded structs), or the zero Value.
func eachField(v reflect.Value) reflect.Value {
	v = reflect.Indirect(v)
	if v.Kind() != reflect.Struct {
		return reflect.Value{}
	}
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Tag.Get("columns") == "each" && f.Type.Kind() == reflect.Slice {
			return v.Field(i)
		}
		if f.Anonymous {
			if got := eachField(v.Field(i)); got.IsValid() {
				return got
			}
		}
	}
	return reflect.Value{}
}
