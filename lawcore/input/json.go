package input

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// DecodeStrict decodes one JSON value, rejecting unknown fields, trailing data and nulls in
// lists.
func DecodeStrict(data []byte, v any) error {
	if bytes.Contains(data, []byte("null")) {
		if err := nullInList(data); err != nil {
			return err
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("not valid JSON for this request: %s", JSONProblem(err))
	}
	if dec.More() {
		return fmt.Errorf("unexpected data after the JSON value")
	}
	return nil
}

// nullInList finds a null among the elements of a list, naming where it is
// ("curves[0].schedule.lr[2]"): Go would decode it as 0, a learning rate or a step that no
// one gave. A null as a field's value stays allowed: the field is then left out.
func nullInList(data []byte) error {
	type level struct {
		list  bool
		key   string
		index int
	}
	var path []level
	where := func() string {
		var b strings.Builder
		for i, l := range path {
			switch {
			case l.list:
				fmt.Fprintf(&b, "[%d]", l.index)
			case i > 0:
				b.WriteString("." + l.key)
			default:
				b.WriteString(l.key)
			}
		}
		return b.String()
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	expectKey := false
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil // the decoder proper reports malformed JSON
		}
		top := len(path) - 1
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				path = append(path, level{list: d == '['})
				expectKey = d == '{'
				continue
			default:
				path = path[:top]
			}
		} else if top >= 0 && !path[top].list && expectKey {
			path[top].key, _ = tok.(string)
			expectKey = false
			continue
		} else if tok == nil && top >= 0 && path[top].list {
			return Errorf("", where(), "null is not a value: give a number (or leave the point out)")
		}
		// a value ended: the next token of an object is a key, of a list the next element
		if top = len(path) - 1; top >= 0 {
			if path[top].list {
				path[top].index++
			} else {
				expectKey = true
			}
		}
	}
}

// JSONProblem words encoding/json's error for a reader: a value of the wrong type names the
// field by its path in the JSON and what it takes ("segments.total" must be a whole number,
// got number 20000.7) rather than the Go type it is decoded into.
func JSONProblem(err error) string {
	if te, ok := errors.AsType[*json.UnmarshalTypeError](err); ok && te.Field != "" {
		return fmt.Sprintf("%q must be %s, got %s", te.Field, jsonKind(te.Type), te.Value)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// jsonKind says in words what JSON a Go value of type t is decoded from.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int64:
		return "a whole number"
	case reflect.Float64:
		return "a number"
	case reflect.String:
		return "a text in quotes"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Float64 {
			return "a list of numbers"
		}
		return "a list"
	case reflect.Struct, reflect.Map:
		return "an object ({...})"
	}
	return "a JSON " + t.String()
}
