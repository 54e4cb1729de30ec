// Compute some statistics for the user.
/* The data below is
   hard-coded for the demo. */
var (
	data  = []float64{2.5, 3.5, 9, 1}
	label = "demo"
)
const scale = 2

total := 0.0 // running sum
for _, d := range data {
	total += d * scale
}
fmt.Printf("%s: %.2f\n", label, total) // done
