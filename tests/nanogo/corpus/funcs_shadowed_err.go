package main

import (
	"errors"
	"fmt"
	"strconv"
)

func parseAll(in []string) (sum int, err error) {
	for _, s := range in {
		n, err := strconv.Atoi(s)
		if err != nil {
			fmt.Println("inner err:", err)
			continue
		}
		sum += n
	}
	return sum, err
}

func firstErr() (err error) {
	if true {
		err := errors.New("shadowed")
		_ = err
	}
	return
}

func main() {
	fmt.Println(parseAll([]string{"1", "x", "3"}))
	fmt.Println(firstErr())
	x := 1
	if x := 2; x > 1 {
		x++
		fmt.Println("inner x", x)
	}
	fmt.Println("outer x", x)
}
