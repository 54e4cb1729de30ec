package main

import (
	"fmt"
	"strconv"
)

func loopForever(n int) int {
	for {
		if n > 100 {
			return n
		}
		n *= 3
	}
}

func classify(n int) string {
	switch {
	case n < 0:
		return "neg"
	default:
		return "non-neg"
	}
}

func mustAtoi(s string) int {
	if n, err := strconv.Atoi(s); err == nil {
		return n
	} else {
		panic(err)
	}
}

func pick(b bool) int {
	if b {
		return 1
	}
	panic("unreachable")
}

func main() {
	fmt.Println(loopForever(2), classify(-1), classify(0), mustAtoi("12"), pick(true))
}
