type Shape interface {
	Area() float64
	Name() string
}

type Circle struct{ Radius float64 }
type Square struct{ Side float64 }

func (c Circle) Area() float64 { return math.Pi * c.Radius * c.Radius }
func (c Circle) Name() string  { return "circle" }
func (s Square) Area() float64 { return s.Side * s.Side }
func (s Square) Name() string  { return "square" }

shapes := []Shape{Circle{2}, Square{3}, Circle{0.5}}
for _, s := range shapes {
	fmt.Printf("%-7s %8.3f\n", s.Name(), s.Area())
}
sort.Slice(shapes, func(i, j int) bool { return shapes[i].Area() < shapes[j].Area() })
fmt.Println(shapes)
