package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

func calc(expr string) (float64, error) {
	parts := strings.Fields(expr)
	if len(parts) != 3 {
		return 0, fmt.Errorf("expected 'a op b', got %q", expr)
	}
	a, err := strconv.ParseFloat(parts[0], 64)
	if err != nil {
		return 0, err
	}
	b, err := strconv.ParseFloat(parts[2], 64)
	if err != nil {
		return 0, err
	}
	switch parts[1] {
	case "+":
		return a + b, nil
	case "-":
		return a - b, nil
	case "*":
		return a * b, nil
	case "/":
		if b == 0 {
			return 0, errors.New("division by zero")
		}
		return a / b, nil
	case "^":
		r := 1.0
		for i := 0; i < int(b); i++ {
			r *= a
		}
		return r, nil
	}
	return 0, fmt.Errorf("unknown operator %s", parts[1])
}

func main() {
	for _, e := range []string{"2 + 3", "10 / 4", "7 * 6", "1 / 0", "2 ^ 10", "5 % 2", "x + 1", "3.5 - 1.25", "oops"} {
		v, err := calc(e)
		if err != nil {
			fmt.Printf("%-10s => error: %v\n", e, err)
			continue
		}
		fmt.Printf("%-10s => %g\n", e, v)
	}
}
