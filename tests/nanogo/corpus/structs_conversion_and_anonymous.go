package main

import "fmt"

type Celsius struct{ Deg float64 }
type Kelvin struct{ Deg float64 }

type Config struct {
	Name    string
	Retries int
	Opts    struct {
		Verbose bool
		Level   int
	}
}

func main() {
	c := Celsius{21.5}
	k := Kelvin(c)
	k.Deg += 273.15
	fmt.Println(c, k)
	var cfg Config
	cfg.Name = "svc"
	cfg.Opts.Verbose = true
	cfg.Opts.Level = 3
	fmt.Printf("%+v\n", cfg)
	fmt.Printf("%v\n", cfg)
	pts := []struct {
		X, Y int
	}{{1, 2}, {3, 4}}
	for _, p := range pts {
		fmt.Printf("%+v ", p)
	}
	fmt.Println()
	type local struct{ A, B string }
	l := local{"x", "y"}
	fmt.Printf("%v %+v %T\n", l, l, l)
}
