package main

type Reason string

func main() {
	panic(Reason("disk full"))
}
