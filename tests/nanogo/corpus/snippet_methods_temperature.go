type Celsius float64
type Fahrenheit float64

func (c Celsius) ToF() Fahrenheit { return Fahrenheit(c*9/5 + 32) }
func (f Fahrenheit) ToC() Celsius { return Celsius((f - 32) * 5 / 9) }

temps := []Celsius{-40, 0, 36.6, 100}
for _, t := range temps {
	fmt.Printf("%.1f°C = %.1f°F\n", t, t.ToF())
}
fmt.Println(Fahrenheit(212).ToC(), Celsius(37).ToF())
