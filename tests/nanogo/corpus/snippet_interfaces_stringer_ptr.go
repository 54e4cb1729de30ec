type Vec struct{ X, Y float64 }

func (v Vec) String() string { return fmt.Sprintf("<%g, %g>", v.X, v.Y) }
func (v Vec) Add(o Vec) Vec   { return Vec{v.X + o.X, v.Y + o.Y} }
func (v Vec) Len() float64    { return math.Sqrt(v.X*v.X + v.Y*v.Y) }

a := Vec{3, 4}
b := Vec{0.5, -1}
fmt.Println(a, b, a.Add(b), &a)
fmt.Printf("%v %s %.2f\n", a.Add(b), b, a.Len())
vs := map[string]Vec{"a": a}
fmt.Println(vs, []Vec{a, b})
