package main

func main() {
	panic('x')
}
