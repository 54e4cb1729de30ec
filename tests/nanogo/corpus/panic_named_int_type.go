package main

type Code int

func main() {
	panic(Code(7))
}
