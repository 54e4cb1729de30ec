radius := 5.0
area := math.Pi * radius * radius
circumference := 2 * math.Pi * radius
fmt.Printf("Area: %.4f\n", area)
fmt.Printf("Circumference: %.4f\n", circumference)
a, b := 3.0, 4.0
c := math.Hypot(a, b)
angle := math.Atan2(b, a) * 180 / math.Pi
fmt.Printf("hypotenuse %.1f angle %.2f°\n", c, angle)
fmt.Println(math.Round(area*100)/100, math.Trunc(circumference))
