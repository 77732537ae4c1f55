package planner

import "reflect"

// ParamsOf returns the parameters a plan takes, in the order the planner
// met them: the Params field that every plan taking arguments has (Append,
// Lookup, LogScan, Call, Show, ...), or nil for a plan without one. Front
// doors that describe a prepared statement's parameters (the Flight SQL
// server's parameter schema) read them here instead of knowing each plan
// type.
func ParamsOf(p Plan) []Param {
	v := reflect.ValueOf(p)
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return nil
	}
	f := v.FieldByName("Params")
	if !f.IsValid() {
		return nil
	}
	params, _ := f.Interface().([]Param)
	return params
}
