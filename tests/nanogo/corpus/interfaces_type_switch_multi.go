package main

import (
	"errors"
	"fmt"
	"strconv"
)

type Celsius float64

func toString(v interface{}) string {
	switch x := v.(type) {
	case int, int64, uint8:
		return fmt.Sprintf("integer %v (%T)", x, x)
	case float32, float64:
		return fmt.Sprintf("float %v", x)
	case Celsius:
		return strconv.FormatFloat(float64(x), 'f', 1, 64) + "°C"
	case fmt.Stringer:
		return "stringer " + x.String()
	case error:
		return "error " + x.Error()
	case []interface{}:
		s := "list["
		for i, e := range x {
			if i > 0 {
				s += ", "
			}
			s += toString(e)
		}
		return s + "]"
	case map[string]interface{}:
		return fmt.Sprintf("map with %d keys", len(x))
	case func() int:
		return "func returning " + strconv.Itoa(x())
	case nil:
		return "nil!"
	}
	return fmt.Sprintf("unknown %T", v)
}

func main() {
	vals := []interface{}{
		7, int64(8), uint8(9), float32(1.5), 2.25, Celsius(36.6), errors.New("bad"),
		[]interface{}{1, "x", nil}, map[string]interface{}{"a": 1}, func() int { return 5 }, nil, "str",
	}
	for _, v := range vals {
		fmt.Println(toString(v))
	}
}
