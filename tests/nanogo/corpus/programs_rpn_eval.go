package main

import (
	"fmt"
	"strconv"
	"strings"
)

func evalRPN(expr string) (result float64, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("bad expression %q: %v", expr, r)
		}
	}()
	var stack []float64
	pop := func() float64 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		return v
	}
	for _, tok := range strings.Fields(expr) {
		if n, perr := strconv.ParseFloat(tok, 64); perr == nil {
			stack = append(stack, n)
			continue
		}
		b, a := pop(), pop()
		switch tok {
		case "+":
			stack = append(stack, a+b)
		case "-":
			stack = append(stack, a-b)
		case "*":
			stack = append(stack, a*b)
		case "/":
			stack = append(stack, a/b)
		default:
			return 0, fmt.Errorf("unknown token %q", tok)
		}
	}
	return pop(), nil
}

func main() {
	for _, e := range []string{"3 4 + 2 *", "5 1 2 + 4 * + 3 -", "2 3 ^", "1 +", "10 4 /"} {
		v, err := evalRPN(e)
		fmt.Println(v, err)
	}
}
