package main

func main() {
	panic(42)
}
