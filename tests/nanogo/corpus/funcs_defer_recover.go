package main

import (
	"errors"
	"fmt"
)

func safeDivide(a, b int) (res int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered: %v", r)
		}
	}()
	return a / b, nil
}

func mustPositive(n int) int {
	if n < 0 {
		panic(fmt.Sprintf("negative value %d", n))
	}
	return n
}

func try(f func()) (msg string) {
	defer func() {
		r := recover()
		if err, ok := r.(error); ok {
			msg = "error: " + err.Error()
		} else if r != nil {
			msg = fmt.Sprint("value: ", r)
		} else {
			msg = "no panic"
		}
	}()
	f()
	return "unreachable?"
}

func main() {
	fmt.Println(safeDivide(10, 2))
	fmt.Println(safeDivide(1, 0))
	fmt.Println(try(func() { mustPositive(-3) }))
	fmt.Println(try(func() { panic(errors.New("custom")) }))
	fmt.Println(try(func() { panic(42) }))
	fmt.Println(try(func() {}))
	fmt.Println(try(func() {
		var m map[string]int
		m["a"] = 1
	}))
	fmt.Println(try(func() {
		s := []int{1}
		i := 5
		_ = s[i]
	}))
	fmt.Println("still running")
}
