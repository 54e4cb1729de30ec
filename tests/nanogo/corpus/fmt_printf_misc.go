package main

import "fmt"

type Temp float64

type Pt struct{ X, Y int }

func (p *Pt) String() string { return fmt.Sprintf("(%d,%d)", p.X, p.Y) }

func main() {
	fmt.Printf("%v %.1f %5.2v\n", Temp(36.6), Temp(36.6), Temp(36.6))
	p := Pt{1, 2}
	fmt.Printf("%v %v %+v\n", p, &p, []*Pt{&p}[0])
	fmt.Printf("%s|%v|%d\n", true, 'x', "7")
	fmt.Printf("%08.3f|%-8.3f|%+08d|%x\n", -3.14159, 2.0, 42, -1)
	fmt.Printf("%3.1f%%|%c|%v\n", 99.95, 0x1F600, []rune("hi"))
	fmt.Printf("%s\n", []interface{}{"a", 1, nil})
	fmt.Printf("%v|%d|%s\n", [3]byte{1, 2, 3}, [2]int8{-1, 1}, [2]string{"a", "b"})
	fmt.Printf("%.3s|%.10s|%.0s|\n", "abcdef", "ab", "xyz")
	fmt.Printf("%e|%.2e|%g|%g\n", 0.0001234, 98765.4321, 1e-5, 123456789.0)
	fmt.Printf("%5.1e|%G|%.3G\n", 1234.5, 1e-20, 0.000012345)
	fmt.Printf("%v %v\n", float32(2.5), []float32{0.1, 0.25})
	fmt.Printf("%t %v\n", "notbool", struct{}{})
}
