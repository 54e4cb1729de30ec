package main

func main() {
	ok := false
	panic(!ok)
}
