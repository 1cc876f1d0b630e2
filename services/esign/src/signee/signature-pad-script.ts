/**
 * The signature pad, and the initials pad when the request has initials fields: each
 * draws with pointer events on its canvas (the initials pad, hidden without JavaScript, is
 * shown first) and, on submit, puts the drawing as a PNG data
 * URL into its hidden field (empty when nothing was drawn). Plain ES5 because it ships as
 * written (no bundler); sent inline under the response's CSP nonce.
 */
export const SIGNATURE_PAD_SCRIPT = `(function(){
var form=document.getElementById('firmar');if(!form)return;
function pad(id,clearId,fieldId){
var c=document.getElementById(id);if(!c||!c.getContext)return;
var row=document.getElementById(id+'-row');if(row)row.hidden=false;
var ctx=c.getContext('2d'),drawn=false,down=false;ctx.lineWidth=2.5;ctx.lineCap='round';ctx.lineJoin='round';ctx.strokeStyle='#000';
function pos(e){var r=c.getBoundingClientRect();return{x:(e.clientX-r.left)*c.width/r.width,y:(e.clientY-r.top)*c.height/r.height};}
c.addEventListener('pointerdown',function(e){down=true;if(c.setPointerCapture)c.setPointerCapture(e.pointerId);var p=pos(e);ctx.beginPath();ctx.moveTo(p.x,p.y);e.preventDefault();});
c.addEventListener('pointermove',function(e){if(!down)return;var p=pos(e);ctx.lineTo(p.x,p.y);ctx.stroke();drawn=true;});
c.addEventListener('pointerup',function(){down=false;});c.addEventListener('pointercancel',function(){down=false;});
document.getElementById(clearId).addEventListener('click',function(){ctx.clearRect(0,0,c.width,c.height);drawn=false;});
form.addEventListener('submit',function(){document.getElementById(fieldId).value=drawn?c.toDataURL('image/png'):'';});
}
pad('pad','pad-clear','firma_imagen_b64');
pad('pad-iniciales','pad-iniciales-clear','iniciales_imagen_b64');
})();`;
