package main

type Ratio float64

func main() {
	panic(Ratio(2.5))
}
