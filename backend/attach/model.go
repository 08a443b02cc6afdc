package attach

import (
	"bytes"
	"image"
	"image/jpeg"
	"image/png"
	"net/http"

	"github.com/errand-app/errand/backend/llm"
	"golang.org/x/image/draw"
)

// ModelSide is the longest side of an image as the model sees it: larger
// images are downscaled to it (the providers scale further themselves;
// sending more only costs upload and memory).
const ModelSide = 2048

// jpegQuality is the re-encoded photos' quality: text on a screenshot
// stays legible.
const jpegQuality = 85

// modelCopy is the image as the model is sent it: a PNG or JPEG that
// already fits ModelSide as it is; any other (larger, a GIF's first
// frame, a WebP) scaled to fit and re-encoded, as PNG when it has
// transparency and JPEG when it is opaque.
func modelCopy(img image.Image, mimeType string, original []byte) ([]byte, error) {
	b := img.Bounds()
	fits := max(b.Dx(), b.Dy()) <= ModelSide
	if fits && (mimeType == "image/png" || mimeType == "image/jpeg") {
		return original, nil
	}
	if !fits {
		img = scaled(img, ModelSide)
	}
	var out bytes.Buffer
	if opaque(img) {
		err := jpeg.Encode(&out, img, &jpeg.Options{Quality: jpegQuality})
		return out.Bytes(), err
	}
	err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&out, img)
	return out.Bytes(), err
}

// scaled is img fitted within side×side, its proportions kept. The
// approximate bilinear scaler needs no buffer beyond the result (the
// exact kernels hold a float64 copy of width × source height: 200 MB for
// a 12-megapixel photo); an image more than twice too large is first
// halved, averaging each 2×2 block, so that no source pixel is skipped.
func scaled(img image.Image, side int) image.Image {
	for max(img.Bounds().Dx(), img.Bounds().Dy()) > 2*side {
		img = halved(img)
	}
	w, h := fit(img.Bounds().Dx(), img.Bounds().Dy(), side)
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.ApproxBiLinear.Scale(dst, dst.Bounds(), img, img.Bounds(), draw.Src, nil)
	return dst
}

// halved is img at half its size, each pixel the mean of a 2×2 block.
func halved(img image.Image) image.Image {
	if y, ok := img.(*image.YCbCr); ok {
		return halvedYCbCr(y) // a JPEG photo: plane by plane, without colour conversion
	}
	b := img.Bounds()
	dst := image.NewRGBA(image.Rect(0, 0, max(1, b.Dx()/2), max(1, b.Dy()/2)))
	for y := 0; y < dst.Rect.Dy(); y++ {
		for x := 0; x < dst.Rect.Dx(); x++ {
			var sum [4]uint32
			for _, p := range [4][2]int{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
				r, g, bl, a := img.At(b.Min.X+2*x+p[0], b.Min.Y+2*y+p[1]).RGBA()
				sum[0], sum[1], sum[2], sum[3] = sum[0]+r, sum[1]+g, sum[2]+bl, sum[3]+a
			}
			i := dst.PixOffset(x, y)
			for c := range sum {
				dst.Pix[i+c] = uint8(sum[c] / 4 >> 8)
			}
		}
	}
	return dst
}

// fit is w×h scaled down to fit side×side (unchanged when it does).
func fit(w, h, side int) (int, int) {
	if w <= side && h <= side {
		return w, h
	}
	if w >= h {
		return side, max(1, h*side/w)
	}
	return max(1, w*side/h), side
}

func opaque(img image.Image) bool {
	if o, ok := img.(interface{ Opaque() bool }); ok {
		return o.Opaque()
	}
	return false
}

// asImage is a model copy as the model layer takes it.
func asImage(name string, data []byte) llm.Image {
	img := llm.Image{Mime: http.DetectContentType(data), Data: data, Name: name}
	if cfg, _, err := image.DecodeConfig(bytes.NewReader(data)); err == nil {
		img.Width, img.Height = cfg.Width, cfg.Height
	}
	return img
}

// forModel is an image's model copy made from its encoded content,
// refused when it is not an image the model takes or is a bomb.
func forModel(name string, data []byte) (llm.Image, error) {
	a, img, err := checkImage(chatAttachment(name), data)
	if err != nil {
		return llm.Image{}, err
	}
	small, err := modelCopy(img, a.Mime, data)
	if err != nil {
		return llm.Image{}, err
	}
	return asImage(name, small), nil
}

// halvedYCbCr halves each plane of a YCbCr image, its subsampling kept.
func halvedYCbCr(src *image.YCbCr) *image.YCbCr {
	b := src.Bounds()
	dst := image.NewYCbCr(image.Rect(0, 0, max(1, b.Dx()/2), max(1, b.Dy()/2)), src.SubsampleRatio)
	halvePlane(dst.Y, dst.YStride, dst.Rect.Dx(), dst.Rect.Dy(), src.Y, src.YStride, b.Dx(), b.Dy())
	cw, ch := chromaSize(src.SubsampleRatio, dst.Rect.Dx(), dst.Rect.Dy())
	sw, sh := chromaSize(src.SubsampleRatio, b.Dx(), b.Dy())
	halvePlane(dst.Cb, dst.CStride, cw, ch, src.Cb, src.CStride, sw, sh)
	halvePlane(dst.Cr, dst.CStride, cw, ch, src.Cr, src.CStride, sw, sh)
	return dst
}

// halvePlane fills a w×h plane with the means of the 2×2 blocks of an
// sw×sh one (the last row or column repeated where it runs out).
func halvePlane(dst []byte, dstride, w, h int, src []byte, sstride, sw, sh int) {
	for y := 0; y < h; y++ {
		y0, y1 := min(2*y, sh-1), min(2*y+1, sh-1)
		for x := 0; x < w; x++ {
			x0, x1 := min(2*x, sw-1), min(2*x+1, sw-1)
			sum := int(src[y0*sstride+x0]) + int(src[y0*sstride+x1]) + int(src[y1*sstride+x0]) + int(src[y1*sstride+x1])
			dst[y*dstride+x] = uint8((sum + 2) / 4)
		}
	}
}

// chromaSize is the size of a w×h YCbCr image's chroma planes.
func chromaSize(r image.YCbCrSubsampleRatio, w, h int) (int, int) {
	switch r {
	case image.YCbCrSubsampleRatio422:
		return (w + 1) / 2, h
	case image.YCbCrSubsampleRatio420:
		return (w + 1) / 2, (h + 1) / 2
	case image.YCbCrSubsampleRatio440:
		return w, (h + 1) / 2
	case image.YCbCrSubsampleRatio411:
		return (w + 3) / 4, h
	case image.YCbCrSubsampleRatio410:
		return (w + 3) / 4, (h + 1) / 2
	}
	return w, h
}
