package main

func main() {
	var code uint8 = 255
	panic(code)
}
