package main

import (
	"errors"
	"fmt"
)

func divmod(a, b int) (int, int) {
	return a / b, a % b
}

func divide(a, b float64) (float64, error) {
	if b == 0 {
		return 0, errors.New("division by zero")
	}
	return a / b, nil
}

func minMax(xs []int) (min, max int) {
	min, max = xs[0], xs[0]
	for _, x := range xs[1:] {
		if x < min {
			min = x
		}
		if x > max {
			max = x
		}
	}
	return
}

func namedDefer() (result int) {
	defer func() { result *= 2 }()
	result = 5
	return result + 1
}

func main() {
	q, r := divmod(17, 5)
	fmt.Println(q, r)
	if v, err := divide(1, 0); err != nil {
		fmt.Println("error:", err)
	} else {
		fmt.Println(v)
	}
	v, err := divide(7, 2)
	fmt.Println(v, err)
	lo, hi := minMax([]int{4, -2, 9, 0})
	fmt.Println(lo, hi)
	_, only := divmod(9, 4)
	fmt.Println(only)
	fmt.Println(namedDefer())
	fmt.Println(divmod(100, 7))
}
