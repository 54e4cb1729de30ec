package main

func main() {
	panic(3.5)
}
