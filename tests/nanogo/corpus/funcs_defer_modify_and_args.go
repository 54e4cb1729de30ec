package main

import "fmt"

func counter() (n int) {
	defer func() { n++ }()
	defer func() { n *= 10 }()
	return 4
}

func deferArgs() {
	x := 1
	defer fmt.Println("deferred x =", x)
	defer func(v int) { fmt.Println("param v =", v, "closure x =", x) }(x)
	x = 99
}

func loopDefer() {
	for i := 0; i < 3; i++ {
		defer func() { fmt.Print(i, " ") }()
	}
}

func recoverReturns() (s string) {
	defer func() {
		if r := recover(); r != nil {
			s = fmt.Sprintf("recovered %v", r)
		}
	}()
	panic("oops")
}

func main() {
	fmt.Println(counter())
	deferArgs()
	loopDefer()
	fmt.Println()
	fmt.Println(recoverReturns())
	fmt.Println(recover())
}
